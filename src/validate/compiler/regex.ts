/**
 * JSON Schema patterns (`pattern`, `patternProperties`, `propertyNames`) matched in time
 * linear in the input: the ECMAScript pattern is translated to RE2 syntax and run on
 * re2js, a pure-JS port of RE2 (an automaton, no backtracking), so `^(a+)+$` cannot hold
 * the process on a hostile string. Syntax only backtracking can do (backreferences,
 * lookaround) is refused when the schema compiles. A pattern of a shape the native engine
 * provably matches in linear time runs natively, for speed (native-pattern.ts). See
 * docs/decisions/054.
 */
import { RE2JS } from 're2js';
import {
  complement,
  LINE_TERMINATORS,
  MAX_CODE_POINT,
  type Range,
  SPACE,
} from './code-point-ranges.ts';
import { linearNative } from './native-pattern.ts';
import { enumerateProperty, re2PropertyName } from './unicode-properties.ts';

/** A compiled pattern: `test` finds a match anywhere in the text, as `RegExp.prototype.test` does. */
export interface SchemaPattern {
  test(text: string): boolean;
}

/** Why a pattern cannot be compiled: `invalid` (not an ECMAScript regular expression) or `unsupported`. */
export class PatternError extends Error {
  constructor(
    readonly kind: 'invalid' | 'unsupported',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Compiles an ECMAScript pattern as JSON Schema means it (Unicode mode; legacy mode for a
 * pattern only it accepts) for linear-time matching.
 *
 * @throws PatternError when the pattern is not a regular expression or uses syntax a
 * linear-time engine cannot match (backreferences, lookahead, lookbehind).
 */
export function compilePattern(source: string): SchemaPattern {
  const unicode = syntaxMode(source);
  const native = unicode ? linearNative(source) : undefined;
  if (native !== undefined) return native;
  const translated = new Translator(source, unicode).translate();
  try {
    return RE2JS.compile(translated);
  } catch (error) {
    throw new PatternError(
      'unsupported',
      `is beyond the linear-time engine's limits (${(error as Error).message}); repetition counts above 1000 are not supported`,
    );
  }
}

/** true for Unicode mode, false for a pattern only legacy mode accepts. */
function syntaxMode(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch (unicodeError) {
    try {
      new RegExp(source);
      return false;
    } catch {
      throw new PatternError('invalid', (unicodeError as Error).message);
    }
  }
}

const hex = (code: number) => `\\x{${code.toString(16)}}`;

/** A code point as RE2 syntax: letters and digits as they are, anything else escaped. */
const literal = (code: number) =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
    ? String.fromCharCode(code)
    : hex(code);

/** Ranges as the inside of an RE2 character class. */
const rangeItems = (ranges: readonly Range[]) =>
  ranges.map(([low, high]) => (low === high ? hex(low) : `${hex(low)}-${hex(high)}`)).join('');

const isDigit = (code: number | undefined) => code !== undefined && code >= 0x30 && code <= 0x39;
const isLetter = (code: number | undefined) =>
  code !== undefined && ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a));
const QUANTIFIER = /\{\d+(?:,\d*)?\}/y;

/** A class item: one code point, or a set (`\d`, `\p{L}`) given as the inside of an RE2 class. */
type ClassAtom = { code: number } | { set: string };

/**
 * Translates a valid ECMAScript pattern to RE2 syntax with the same meaning. Capturing and
 * named groups become non-capturing (only whether it matches counts); `.`, `\s` and
 * property escapes become explicit classes where the engines differ.
 */
class Translator {
  private i = 0;
  private readonly namedGroups: boolean;

  constructor(
    private readonly source: string,
    private readonly unicode: boolean,
  ) {
    this.namedGroups = /\(\?<[^=!]/.test(source);
  }

  translate(): string {
    let out = '';
    while (this.i < this.source.length) out += this.term();
    return out;
  }

  private peek(offset = 0): number | undefined {
    return this.source.codePointAt(this.i + offset);
  }

  private next(): number {
    const code = this.source.codePointAt(this.i) as number;
    this.i += code > 0xffff ? 2 : 1;
    return code;
  }

  private unsupported(what: string): never {
    throw new PatternError(
      'unsupported',
      `uses ${what}, which only a backtracking engine can match`,
    );
  }

  private term(): string {
    const char = this.source[this.i];
    switch (char) {
      case '(':
        return this.group();
      case ')':
      case '|':
      case '*':
      case '+':
      case '?':
      case '^':
      case '$':
        this.i++;
        return char;
      case '{': {
        QUANTIFIER.lastIndex = this.i;
        const quantifier = QUANTIFIER.exec(this.source);
        if (quantifier === null) break;
        this.i += quantifier[0].length;
        return quantifier[0];
      }
      case '.':
        this.i++;
        return `[^${rangeItems(LINE_TERMINATORS)}]`;
      case '[':
        return this.characterClass();
      case '\\':
        return this.escape();
    }
    return literal(this.next());
  }

  private group(): string {
    const rest = this.source.slice(this.i, this.i + 4);
    if (rest.startsWith('(?=') || rest.startsWith('(?!'))
      this.unsupported('lookahead `(?=…)`/`(?!…)`');
    if (rest.startsWith('(?<=') || rest.startsWith('(?<!'))
      this.unsupported('lookbehind `(?<=…)`/`(?<!…)`');
    if (rest.startsWith('(?:')) this.i += 3;
    else if (rest.startsWith('(?<')) this.i = this.source.indexOf('>', this.i) + 1;
    else if (rest.startsWith('(?')) this.unsupported('the group modifier `(?…)`');
    else this.i++;
    return '(?:';
  }

  private escape(): string {
    this.i++;
    const code = this.peek() as number;
    const letter = String.fromCodePoint(code);
    switch (letter) {
      case 'b':
      case 'B':
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        this.i++;
        return `\\${letter}`;
      case 'k':
        if (!this.unicode && !this.namedGroups) break;
        this.unsupported('the backreference `\\k<…>`');
        break;
      case 'p':
      case 'P':
      case 's':
      case 'S': {
        if (!this.unicode && (letter === 'p' || letter === 'P')) break;
        return `[${this.setEscape()}]`;
      }
    }
    if (isDigit(code) && !(code === 0x30 && !isDigit(this.peek(1))))
      this.unsupported(
        this.unicode
          ? `the backreference \`\\${letter}\``
          : `the backreference or octal escape \`\\${letter}\``,
      );
    return literal(this.characterEscape(false));
  }

  /** `\s`, `\S`, `\p{…}`, `\P{…}` (at the letter) as the inside of an RE2 class. */
  private setEscape(): string {
    const letter = String.fromCodePoint(this.next());
    if (letter === 's') return rangeItems(SPACE);
    if (letter === 'S') return rangeItems(complement(SPACE));
    const end = this.source.indexOf('}', this.i);
    const body = this.source.slice(this.i + 1, end);
    this.i = end + 1;
    const name = re2PropertyName(body);
    if (name !== undefined) return `\\${letter}{${name}}`;
    const ranges = enumerateProperty(body);
    return rangeItems(letter === 'p' ? ranges : complement(ranges));
  }

  /** A character escape (at the letter after `\`) as its code point. */
  private characterEscape(inClass: boolean): number {
    const code = this.next();
    switch (String.fromCodePoint(code)) {
      case 'f':
        return 0x0c;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'v':
        return 0x0b;
      case '0':
        return 0;
      case 'b':
        return inClass ? 0x08 : code;
      case 'c': {
        const control = this.peek();
        if (
          isLetter(control) ||
          (inClass && !this.unicode && (isDigit(control) || control === 0x5f))
        ) {
          this.i++;
          return (control as number) % 32;
        }
        this.i--; // legacy: `\c` not followed by a letter is a backslash, then `c`
        return 0x5c;
      }
      case 'x': {
        const digits = this.source.slice(this.i, this.i + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(digits)) return code;
        this.i += 2;
        return Number.parseInt(digits, 16);
      }
      case 'u':
        return this.unicodeEscape() ?? code;
    }
    return code;
  }

  /** `\uXXXX` (a surrogate pair of them as one code point) or `\u{…}`, after the `u`. */
  private unicodeEscape(): number | undefined {
    if (this.unicode && this.source[this.i] === '{') {
      const end = this.source.indexOf('}', this.i);
      const code = Number.parseInt(this.source.slice(this.i + 1, end), 16);
      this.i = end + 1;
      return code;
    }
    const digits = this.source.slice(this.i, this.i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) return undefined;
    this.i += 4;
    const code = Number.parseInt(digits, 16);
    const trail = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(this.source.slice(this.i, this.i + 6));
    if (code >= 0xd800 && code <= 0xdbff && trail !== null) {
      this.i += 6;
      return (code - 0xd800) * 0x400 + Number.parseInt(trail[1], 16) - 0xdc00 + 0x10000;
    }
    return code;
  }

  private characterClass(): string {
    this.i++;
    const negated = this.source[this.i] === '^';
    if (negated) this.i++;
    let items = '';
    while (this.source[this.i] !== ']') {
      const first = this.classAtom();
      if (this.source[this.i] === '-' && this.source[this.i + 1] !== ']') {
        this.i++;
        const last = this.classAtom();
        if ('code' in first && 'code' in last) {
          items += `${hex(first.code)}-${hex(last.code)}`;
          continue;
        }
        items += this.classItem(first) + hex(0x2d) + this.classItem(last); // legacy `[\d-z]`
        continue;
      }
      items += this.classItem(first);
    }
    this.i++;
    if (items === '') return `[${negated ? '' : '^'}${hex(0)}-${hex(MAX_CODE_POINT)}]`; // `[^]`, `[]`
    return `[${negated ? '^' : ''}${items}]`;
  }

  private classItem(atom: ClassAtom): string {
    return 'code' in atom ? literal(atom.code) : atom.set;
  }

  private classAtom(): ClassAtom {
    if (this.source[this.i] !== '\\') return { code: this.next() };
    this.i++;
    const code = this.peek() as number;
    const letter = String.fromCodePoint(code);
    if ('dDwW'.includes(letter)) {
      this.i++;
      return { set: `\\${letter}` };
    }
    if (letter === 's' || letter === 'S' || (this.unicode && (letter === 'p' || letter === 'P')))
      return { set: this.setEscape() };
    if (letter === '-') {
      this.i++;
      return { code };
    }
    if (isDigit(code) && !(code === 0x30 && !isDigit(this.peek(1))))
      this.unsupported(`the legacy octal escape \`\\${letter}\``);
    return { code: this.characterEscape(true) };
  }
}
