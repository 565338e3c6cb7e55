/**
 * How much of one answer a model call holds, bounded (decision 177): every piece an
 * adapter keeps — text, tool call arguments, reasoning and its signatures, output items
 * kept whole (an encrypted reasoning item, a server tool's result) — is counted here, and
 * past `maxAnswerChars` the call fails with a {@link ModelError}.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import { ModelError } from './model-error.ts';

/** The default of `maxAnswerChars`: 16 Mi characters (16,777,216). */
export const DEFAULT_MAX_ANSWER_CHARS = 16 * 1024 * 1024;

/**
 * What holding one more piece costs beyond its characters, counted as characters: the
 * string node that joins it to the rest, its part of the event it came in. So a flood of
 * one-character deltas holds no more memory than a flood of long ones.
 */
export const PIECE_CHARS = 32;

/** What an answer's piece is, for the error that refuses it. */
export type AnswerPiece =
  | 'text'
  | 'tool call'
  | 'tool call arguments'
  | 'reasoning'
  | 'output item'
  | 'content block';

/** The size of one call's answer so far, and its limit. */
export class AnswerSize {
  private chars = 0;
  /** Called each time the answer grows: a stream's idle wait starts over (decision 178). */
  onGrow: () => void = () => undefined;

  constructor(
    readonly provider = 'model',
    readonly max = DEFAULT_MAX_ANSWER_CHARS,
  ) {}

  /** Counts a piece of `chars` characters; past the limit, a {@link ModelError}. */
  add(what: AnswerPiece, chars: number): void {
    this.chars += chars + PIECE_CHARS;
    if (this.chars > this.max) throw this.tooLong(what);
    this.onGrow();
  }

  /**
   * Counts a value kept whole (a parsed output item, a content block): its strings' and
   * keys' characters, and {@link PIECE_CHARS} for each other value. Stops at the limit.
   */
  addValue(what: AnswerPiece, value: unknown): void {
    let chars = 0;
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const next = stack.pop();
      if (typeof next === 'string') chars += next.length;
      else if (typeof next === 'object' && next !== null) {
        for (const [key, inner] of Object.entries(next)) {
          chars += key.length;
          stack.push(inner);
        }
      } else chars += PIECE_CHARS;
      if (this.chars + chars > this.max) throw this.tooLong(what);
    }
    this.add(what, chars);
  }

  private tooLong(what: AnswerPiece): ModelError {
    const { provider, max } = this;
    return new ModelError(
      `${provider}: the answer is longer than maxAnswerChars (${max} characters of text, tool call arguments and reasoning together, each piece counting ${PIECE_CHARS} more); a piece of ${what} passed it and the call was stopped. Raise the limit with ${provider}({ maxAnswerChars }) if the model's answers are really this long`,
      { provider, code: 'answer_too_large' },
    );
  }
}

/** The `maxAnswerChars` option, checked: a positive integer (default {@link DEFAULT_MAX_ANSWER_CHARS}). */
export function maxAnswerCharsOf(provider: string, value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_ANSWER_CHARS;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new RangeError(
    `${provider}(options).maxAnswerChars: expected a positive integer number of characters, received ${describeValue(value)}`,
  );
}
