/**
 * The inbox's defences: security headers, the access token and its cookie, the CSRF
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

/** The cookie that carries the access token after the first visit. */
export const TOKEN_COOKIE = 'fino_inbox_token';

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

/** `Set-Cookie` for the access token: never readable by scripts, never sent cross-site. */
export function tokenCookie(token: string, path: string, secure: boolean): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=${path}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/**
 * Issues and checks the forms' CSRF tokens: an HMAC, under a secret made when the
 * handler is, of the access token (or of nothing, when none is set). A page from
 * another origin cannot read ours, so it cannot learn the value.
 */
export function csrfTokens(accessToken: string | undefined) {
  const secret = randomBytes(32);
  const value = createHmac('sha256', secret)
    .update(`fino-inbox-csrf:${accessToken ?? ''}`)
    .digest('base64url');
  return {
    value,
    check: (sent: string | undefined) => typeof sent === 'string' && sameSecret(sent, value),
  };
}
