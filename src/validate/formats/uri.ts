import { isIpv6 } from './ip.ts';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
/** pchar and `/`, `?` of RFC 3986, with percent-encodings. */
const CHARS = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/;
const USERINFO = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*$/;
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const IP_FUTURE = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;

function isAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  if (at >= 0 && !USERINFO.test(authority.slice(0, at))) return false;
  let host = authority.slice(at + 1);
  const port = /:([0-9]*)$/.exec(host);
  if (port !== null && (!host.startsWith('[') || host.endsWith(`]:${port[1]}`)))
    host = host.slice(0, port.index);
  if (host.startsWith('[')) {
    if (!host.endsWith(']')) return false;
    const literal = host.slice(1, -1);
    return isIpv6(literal) || IP_FUTURE.test(literal);
  }
  return REG_NAME.test(host);
}

/** Splits RFC 3986 `hier-part`/`relative-part` into authority and path, and checks them. */
function isHierarchy(part: string): boolean {
  if (part.startsWith('//')) {
    const slash = part.indexOf('/', 2);
    const authority = slash < 0 ? part.slice(2) : part.slice(2, slash);
    const path = slash < 0 ? '' : part.slice(slash);
    return isAuthority(authority) && CHARS.test(path) && !path.includes('?');
  }
  return CHARS.test(part) && !part.includes('?');
}

function parts(value: string): { beforeQuery: string; rest: string } {
  const hash = value.indexOf('#');
  const noFragment = hash < 0 ? value : value.slice(0, hash);
  const fragment = hash < 0 ? '' : value.slice(hash + 1);
  const question = noFragment.indexOf('?');
  const query = question < 0 ? '' : noFragment.slice(question + 1);
  return {
    beforeQuery: question < 0 ? noFragment : noFragment.slice(0, question),
    rest: `${query}${fragment}`,
  };
}

/** RFC 3986 URI: a scheme, then a hierarchical part, query and fragment of legal characters. */
export function isUri(value: string): boolean {
  const colon = value.indexOf(':');
  if (colon <= 0 || !SCHEME.test(value.slice(0, colon))) return false;
  const { beforeQuery, rest } = parts(value.slice(colon + 1));
  return isHierarchy(beforeQuery) && CHARS.test(rest);
}

/** RFC 3986 URI reference: a URI, or a relative reference (`/a`, `../b?c#d`, `#frag`). */
export function isUriReference(value: string): boolean {
  if (isUri(value)) return true;
  const { beforeQuery, rest } = parts(value);
  const firstSegment = beforeQuery.split('/')[0];
  if (!beforeQuery.startsWith('/') && firstSegment.includes(':')) return false;
  return isHierarchy(beforeQuery) && CHARS.test(rest);
}
