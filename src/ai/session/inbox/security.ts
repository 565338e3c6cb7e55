/**
 * The inbox's defences: security headers, the login cookie, the CSRF
 * token of the forms, and the same-origin check of every POST (decision 073).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The page may load only its own script, style sheet and event stream. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Headers every response carries. */
export function securityHeaders(contentType: string): Headers {
  return new Headers({
    'content-type': contentType,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    // Not no-referrer: under it Chromium sends `Origin: null` with the page's own form
    // posts, and the same-origin check could not tell them from forged ones (decision 073).
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  });
}

/** Compares two strings in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The value of cookie `name` in a `Cookie` header, if present. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The name of the login cookie of an inbox at `url`. Cookies are not scoped by port, so
 * the port is in the name: inboxes on two ports of one host keep their own logins. Over
 * HTTPS the `__Host-` prefix also makes the browser refuse it from any other host name
 * or without `Secure` (decision 129).
 */
export function loginCookieName(url: URL): string {
  const https = url.protocol === 'https:';
  const port = url.port || (https ? '443' : '80');
  return `${https ? '__Host-' : ''}fino_inbox_${port}`;
}

/** The path a login cookie is set on: `/` for `__Host-` cookies (the prefix requires it). */
const cookiePath = (url: URL, base: string) =>
  url.protocol === 'https:' || base === '' ? '/' : base;

/**
 * `Set-Cookie` for a login: the login id (never the token), never readable by scripts,
 * never sent cross-site, ending after `maxAgeMs` (0 deletes it).
 */
export function loginCookie(url: URL, base: string, value: string, maxAgeMs: number): string {
  const secure = url.protocol === 'https:' ? '; Secure' : '';
  return `${loginCookieName(url)}=${value}; Path=${cookiePath(url, base)}; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * Issues and checks the forms' CSRF tokens: an HMAC, under a secret made when the
 * handler is, of the login id (or of nothing, without a token). A page from another
 * origin cannot read ours, so it cannot learn the value.
 */
export function csrfTokens() {
  const secret = randomBytes(32);
  const valueFor = (login: string | undefined) =>
    createHmac('sha256', secret)
      .update(`fino-inbox-csrf:${login ?? ''}`)
      .digest('base64url');
  return {
    valueFor,
    check: (sent: string | undefined, login: string | undefined) =>
      typeof sent === 'string' && sameSecret(sent, valueFor(login)),
  };
}
