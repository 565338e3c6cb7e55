import { isHostname, PLAIN_HOSTNAME_SOURCE } from './hostname.ts';
import { isIpv4, isIpv6 } from './ip.ts';

const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const PLAIN_EMAIL = new RegExp(
  `^[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+)*@${PLAIN_HOSTNAME_SOURCE}$`,
);
const QUOTED = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;

/**
 * RFC 5321 mailbox: a dot-atom or quoted local part, `@`, then a host name or an
 * address literal (`[127.0.0.1]`, `[IPv6:::1]`).
 */
export function isEmail(value: string): boolean {
  if (value.length <= 254 && !value.includes('--') && PLAIN_EMAIL.test(value)) return true;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!DOT_ATOM.test(local) && !QUOTED.test(local)) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1);
    return literal.startsWith('IPv6:') ? isIpv6(literal.slice(5)) : isIpv4(literal);
  }
  return isHostname(domain);
}
