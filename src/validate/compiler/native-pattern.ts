/**
 * The hybrid rule of docs/decisions/054: a pattern the native (backtracking) engine
 * provably matches in linear time runs natively, for speed; every other one on re2js.
 *
 * Accepted shape, in Unicode mode: an optional `^`, a sequence of single-character items
 * (a literal, an escape, `.`, `\d`/`\w`/`\s` and negations, a class of those), each with an
 * optional greedy quantifier, and an optional final `$`. No group, alternation, `\b`,
 * property escape or lazy quantifier. And:
 *
 * - a pattern with a variable quantifier (`*`, `+`, `?`, `{n,m}` with n < m) starts with `^`,
 *   so the engine tries one start position;
 * - each variably quantified item's set is disjoint from every set that can match the next
 *   character after it (the following items up to and including the first that must match
 *   at least once).
 *
 * Why that is linear: when such an item gives a character back, that character belongs to
 * its set, which no item that could come next accepts, so the rest fails at once, without
 * consuming anything. Each give-back then costs O(pattern), each character is given back at
 * most once, and no item is entered again from a different position: O(input × pattern).
 */
import {
  complement,
  DIGIT,
  intersects,
  LINE_TERMINATORS,
  type Range,
  SPACE,
  union,
  WORD,
} from './code-point-ranges.ts';

interface Item {
  set: Range[];
  min: number;
  max: number;
}

/** The escapes that stand for themselves in Unicode mode (`\.`, `\/`…). */
const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const CONTROL: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13 };
const SETS: Readonly<Record<string, readonly Range[]>> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};
/** RE2's largest repetition count. */
const MAX_COUNT = 1000;
const QUANTIFIER = /\{(\d+)(?:(,)(\d*))?\}/y;

/** The native RegExp (Unicode mode) for a pattern of the linear shape above, else undefined. */
export function linearNative(source: string): RegExp | undefined {
  const parser = new ShapeParser(source);
  const shape = parser.parse();
  if (shape === undefined || !isLinear(shape.items, shape.anchored)) return undefined;
  return new RegExp(source, 'u');
}

function isLinear(items: readonly Item[], anchored: boolean): boolean {
  for (let i = 0; i < items.length; i++) {
    if (items[i].min === items[i].max) continue;
    if (!anchored) return false;
    const next: Range[][] = [];
    for (let j = i + 1; j < items.length; j++) {
      next.push(items[j].set);
      if (items[j].min > 0) break;
    }
    if (intersects(items[i].set, union(...next))) return false;
  }
  return true;
}

/** Reads the accepted shape; undefined as soon as the pattern leaves it. */
class ShapeParser {
  private i = 0;

  constructor(private readonly source: string) {}

  parse(): { items: Item[]; anchored: boolean } | undefined {
    const anchored = this.source.startsWith('^');
    if (anchored) this.i = 1;
    const end =
      this.source.endsWith('$') && !this.source.endsWith('\\$')
        ? this.source.length - 1
        : this.source.length;
    const items: Item[] = [];
    while (this.i < end) {
      const set = this.atom();
      if (set === undefined) return undefined;
      const counts = this.quantifier();
      if (counts === undefined) return undefined;
      items.push({ set, ...counts });
    }
    return this.i === end ? { items, anchored } : undefined;
  }

  private quantifier(): { min: number; max: number } | undefined {
    const char = this.source[this.i];
    let counts: { min: number; max: number } = { min: 1, max: 1 };
    if (char === '*' || char === '+' || char === '?') {
      this.i++;
      counts = { min: char === '+' ? 1 : 0, max: char === '?' ? 1 : Number.POSITIVE_INFINITY };
    } else if (char === '{') {
      QUANTIFIER.lastIndex = this.i;
      const match = QUANTIFIER.exec(this.source);
      if (match === null) return undefined;
      this.i += match[0].length;
      const min = Number(match[1]);
      // Counts the linear engine refuses are refused whichever engine would run the pattern.
      if (min > MAX_COUNT || Number(match[3] ?? 0) > MAX_COUNT) return undefined;
      counts = {
        min,
        max:
          match[2] === undefined
            ? min
            : match[3] === ''
              ? Number.POSITIVE_INFINITY
              : Number(match[3]),
      };
    }
    const after = this.source[this.i];
    return after === '?' || after === '*' || after === '+' || after === '{' ? undefined : counts;
  }

  private atom(): Range[] | undefined {
    const code = this.source.codePointAt(this.i) as number;
    const char = String.fromCodePoint(code);
    if (char === '.') {
      this.i++;
      return complement(LINE_TERMINATORS);
    }
    if (char === '[') return this.characterClass();
    if (char === '\\') {
      this.i++;
      const escaped = this.source[this.i];
      const set = Object.hasOwn(SETS, escaped) ? SETS[escaped] : undefined;
      if (set !== undefined) {
        this.i++;
        return [...set];
      }
      const single = this.characterEscape(false);
      return single === undefined ? undefined : [[single, single]];
    }
    if ('()|^$*+?{}]'.includes(char)) return undefined;
    this.i += char.length;
    return [[code, code]];
  }

  /** After `\`: a single character it stands for, or undefined for anything else. */
  private characterEscape(inClass: boolean): number | undefined {
    const escaped = this.source[this.i];
    if (Object.hasOwn(CONTROL, escaped)) {
      this.i++;
      return CONTROL[escaped];
    }
    if (SYNTAX.has(escaped) || (inClass && escaped === '-')) {
      this.i++;
      return escaped.charCodeAt(0);
    }
    if (inClass && escaped === 'b') {
      this.i++;
      return 0x08;
    }
    const hex = /x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})/y;
    hex.lastIndex = this.i;
    const match = hex.exec(this.source);
    if (match === null) return undefined;
    const code = Number.parseInt(match[1] ?? match[2], 16);
    if (code >= 0xd800 && code <= 0xdfff) return undefined;
    this.i += match[0].length;
    return code;
  }

  private characterClass(): Range[] | undefined {
    this.i++;
    const negated = this.source[this.i] === '^';
    if (negated) this.i++;
    const parts: Range[][] = [];
    while (this.i < this.source.length && this.source[this.i] !== ']') {
      const first = this.classAtom();
      if (first === undefined) return undefined;
      if (this.source[this.i] === '-' && this.source[this.i + 1] !== ']') {
        this.i++;
        const last = this.classAtom();
        if (last === undefined || first.length !== 1 || last.length !== 1) return undefined;
        if (first[0][0] !== first[0][1] || last[0][0] !== last[0][1]) return undefined;
        parts.push([[first[0][0], last[0][0]]]);
      } else {
        parts.push(first);
      }
    }
    this.i++;
    const set = union(...parts);
    return negated ? complement(set) : set;
  }

  private classAtom(): Range[] | undefined {
    const code = this.source.codePointAt(this.i) as number;
    if (code !== 0x5c) {
      this.i += code > 0xffff ? 2 : 1;
      return [[code, code]];
    }
    this.i++;
    const escaped = this.source[this.i];
    if (Object.hasOwn(SETS, escaped)) {
      this.i++;
      return [...SETS[escaped]];
    }
    const single = this.characterEscape(true);
    return single === undefined ? undefined : [[single, single]];
  }
}
