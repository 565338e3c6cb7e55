/**
 * Whether an access token was issued for this resource server: its audience (a JWT's
 * `aud`, an introspection answer's `aud`, or the RFC 8707 `resource` it was requested
 * for) must name the server's `resource` URL. Decision 186.
 */

/** The longest audience quoted back in a refusal. */
const QUOTED_AUDIENCE_CHARS = 200;

/**
 * Why a token whose audience is `audience` is not for `resource`, or `undefined` when it
 * is (or when `verify` reported no audience: then `verify` alone answers for it).
 */
export function audienceMismatch(
  audience: string | readonly string[] | undefined,
  resource: string,
): string | undefined {
  if (audience === undefined) return undefined;
  const named = typeof audience === 'string' ? [audience] : audience;
  if (!Array.isArray(named) || named.some((entry) => typeof entry !== 'string')) {
    return 'Token audience unreadable: verify returned an audience that is not a string or an array of strings';
  }
  const expected = comparable(resource);
  if (named.some((entry) => comparable(entry) === expected)) return undefined;
  const quoted = JSON.stringify(named).slice(0, QUOTED_AUDIENCE_CHARS);
  return `Token was not issued for this resource: its audience ${quoted} does not name ${resource}`;
}

/** A resource URL as compared: parsed (scheme and host lowercased), no fragment, no trailing `/`. */
function comparable(value: string): string {
  let text = value;
  try {
    const url = new URL(value);
    url.hash = '';
    text = url.href;
  } catch {
    // not a URL: compared as written
  }
  return text.endsWith('/') ? text.slice(0, -1) : text;
}
