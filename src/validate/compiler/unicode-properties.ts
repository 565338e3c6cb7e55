/**
 * Unicode property escapes (`\p{…}`, `\P{…}`) of a schema pattern for RE2: the RE2 name
 * of the ones it knows with the same meaning, and the code points of the others, read
 * from the native engine (see regex.ts).
 */
import { RE2JS } from 're2js';
import { MAX_CODE_POINT, type Range } from './code-point-ranges.ts';

/**
 * General categories RE2 knows by their short name, by every name ECMAScript accepts.
 * `C` and `Cn` are left out: RE2's `C` has no unassigned code points, ECMAScript's has.
 */
const CATEGORIES: Readonly<Record<string, string>> = (() => {
  const names: Record<string, string[]> = {
    L: ['Letter'],
    LC: ['Cased_Letter'],
    Lu: ['Uppercase_Letter'],
    Ll: ['Lowercase_Letter'],
    Lt: ['Titlecase_Letter'],
    Lm: ['Modifier_Letter'],
    Lo: ['Other_Letter'],
    M: ['Mark', 'Combining_Mark'],
    Mn: ['Nonspacing_Mark'],
    Mc: ['Spacing_Mark'],
    Me: ['Enclosing_Mark'],
    N: ['Number'],
    Nd: ['Decimal_Number', 'digit'],
    Nl: ['Letter_Number'],
    No: ['Other_Number'],
    P: ['Punctuation', 'punct'],
    Pc: ['Connector_Punctuation'],
    Pd: ['Dash_Punctuation'],
    Ps: ['Open_Punctuation'],
    Pe: ['Close_Punctuation'],
    Pi: ['Initial_Punctuation'],
    Pf: ['Final_Punctuation'],
    Po: ['Other_Punctuation'],
    S: ['Symbol'],
    Sm: ['Math_Symbol'],
    Sc: ['Currency_Symbol'],
    Sk: ['Modifier_Symbol'],
    So: ['Other_Symbol'],
    Z: ['Separator'],
    Zs: ['Space_Separator'],
    Zl: ['Line_Separator'],
    Zp: ['Paragraph_Separator'],
  };
  const byName: Record<string, string> = Object.create(null);
  for (const [short, long] of Object.entries(names)) {
    byName[short] = short;
    for (const name of long) byName[name] = short;
  }
  return byName;
})();

const propertyRanges = new Map<string, Range[]>();

/**
 * The code points of a property escape (`Script_Extensions=Greek`, `ASCII`, `Emoji`…) RE2
 * has no name for, read from the native engine once per process: exact ECMAScript semantics.
 */
export function enumerateProperty(body: string): Range[] {
  let ranges = propertyRanges.get(body);
  if (ranges !== undefined) return ranges;
  const member = new RegExp(`^\\p{${body}}$`, 'u');
  ranges = [];
  let start = -1;
  for (let code = 0; code <= MAX_CODE_POINT + 1; code++) {
    const inside = code <= MAX_CODE_POINT && member.test(String.fromCodePoint(code));
    if (inside && start < 0) start = code;
    else if (!inside && start >= 0) {
      ranges.push([start, code - 1]);
      start = -1;
    }
  }
  propertyRanges.set(body, ranges);
  return ranges;
}

const knownToRe2 = new Map<string, boolean>();

/** The RE2 name of a property escape's body, when RE2 has one with the same meaning. */
export function re2PropertyName(body: string): string | undefined {
  const [key, value] = body.includes('=') ? body.split('=') : [undefined, body];
  let name: string | undefined;
  if (key === undefined || key === 'General_Category' || key === 'gc') name = CATEGORIES[value];
  else if (key === 'Script' || key === 'sc') name = value;
  if (name === undefined) return undefined;
  let known = knownToRe2.get(name);
  if (known === undefined) {
    try {
      RE2JS.compile(`\\p{${name}}`);
      known = true;
    } catch {
      known = false;
    }
    knownToRe2.set(name, known);
  }
  return known ? name : undefined;
}
