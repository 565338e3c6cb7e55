import { decodePunycode } from './punycode.ts';

const LABEL = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;
/** A whole host name of plain ASCII labels (callers rule out `--` first): the common case, one regex. */
export const PLAIN_HOSTNAME_SOURCE =
  '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*';
const PLAIN_HOSTNAME = new RegExp(`^${PLAIN_HOSTNAME_SOURCE}$`);

/** Code points IDNA2008 (RFC 5892 §2.6) disallows despite their category. */
const DISALLOWED = /[\u0640\u07fa\u302e\u302f\u3031-\u3035\u303b]/u;
/** Code points of Unicode canonical combining class 9 (virama), which a ZERO WIDTH JOINER must follow. */
const VIRAMA =
  /[\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d3b\u0d3c\u0d4d\u0dca\u0e3a\u0eba\u0f84\u1039\u103a\u1714\u1715\u1734\u17d2\u1a60\u1b44\u1baa\u1bab\u1bf2\u1bf3\u2d7f\ua806\ua82c\ua8c4\ua953\ua9c0\uaaf6\uabed]/u;

/** The contextual rules of RFC 5892 appendix A for a decoded U-label. */
function satisfiesContextRules(label: string): boolean {
  const chars = [...label];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    const before = chars[i - 1];
    const after = chars[i + 1];
    if (char === '\u00b7' && !(before === 'l' && after === 'l')) return false;
    if (char === '\u0375' && !(after !== undefined && /\p{Script=Greek}/u.test(after)))
      return false;
    if (
      (char === '\u05f3' || char === '\u05f4') &&
      !(before !== undefined && /\p{Script=Hebrew}/u.test(before))
    ) {
      return false;
    }
    if (char === '\u200d' && !(before !== undefined && VIRAMA.test(before))) return false;
  }
  if (
    label.includes('\u30fb') &&
    !/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(label.replaceAll('\u30fb', ''))
  ) {
    return false;
  }
  return !(/[\u0660-\u0669]/.test(label) && /[\u06f0-\u06f9]/.test(label));
}

/** An A-label (`xn--…`): valid Punycode whose U-label passes the IDNA2008 checks fino makes. */
function isALabel(label: string): boolean {
  const decoded = decodePunycode(label.slice(4));
  if (decoded === undefined || decoded === '') return false;
  if (decoded.slice(2, 4) === '--') return false;
  if (/^\p{M}/u.test(decoded) || DISALLOWED.test(decoded)) return false;
  return satisfiesContextRules(decoded);
}

/**
 * RFC 1123 host name: dot-separated ASCII labels of letters, digits and inner hyphens,
 * each 1–63 characters, 253 in all, no trailing dot; `xn--` labels must be valid A-labels.
 */
export function isHostname(value: string): boolean {
  if (value.length <= 253 && !value.includes('--') && PLAIN_HOSTNAME.test(value)) return true;
  if (value.length === 0 || value.length > 253) return false;
  for (const label of value.split('.')) {
    if (!LABEL.test(label)) return false;
    if (label.slice(2, 4) === '--') {
      if (label.slice(0, 4).toLowerCase() !== 'xn--' || !isALabel(label)) return false;
    }
  }
  return true;
}
