/**
 * How long a model request may wait for its server, per model (docs/decisions/105).
 */
import { describeValue } from '../../../internal/describe-value.ts';
import { checkDuration } from '../../../internal/duration.ts';
import { unknownKeyMessage } from '../../../internal/known-keys.ts';
import { ModelError } from '../core/index.ts';

/**
 * The waits of one model request, in milliseconds; `Infinity` turns one off. A request
 * that waits longer fails with a retryable `ModelError` (`code: 'timeout'`), and is
 * retried like a 5xx, unless part of its stream was already delivered.
 */
export interface TimeoutOptions {
  /** `stream()`: from sending the request until the response's headers arrive (default 120 000). */
  firstByteMs?: number;
  /**
   * `stream()`: how long the stream may go without content, from its headers on (default
   * 300 000). Only an event that adds to the answer (text, reasoning, a tool call, an
   * output item) restarts the wait: keep-alive comments, `ping` events, empty deltas and
   * status events (`response.in_progress`) do not. Time the caller spends between two
   * reads does not count.
   */
  idleMs?: number;
  /** `generate()`: from sending the request until the whole answer has arrived (default 300 000). */
  responseMs?: number;
}

/** The defaults of {@link TimeoutOptions}. */
export const DEFAULT_TIMEOUTS: Readonly<Required<TimeoutOptions>> = {
  firstByteMs: 120_000,
  idleMs: 300_000,
  responseMs: 300_000,
};

const KNOWN: Record<keyof TimeoutOptions, true> = {
  firstByteMs: true,
  idleMs: true,
  responseMs: true,
};

/** Checks a provider's `timeouts` option and fills in the defaults. */
export function timeoutsOf(
  provider: string,
  given: TimeoutOptions | undefined,
): Required<TimeoutOptions> {
  if (given === undefined) return { ...DEFAULT_TIMEOUTS };
  const where = `${provider}(options).timeouts`;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new TypeError(
      `${where}: expected an object { firstByteMs?, idleMs?, responseMs? }, received ${describeValue(given)}`,
    );
  }
  const unknown = unknownKeyMessage(where, given, Object.keys(KNOWN));
  if (unknown) throw new ModelError(unknown, { provider, code: 'INVALID_ARGUMENT' });
  const out = { ...DEFAULT_TIMEOUTS };
  for (const name of Object.keys(KNOWN) as (keyof TimeoutOptions)[]) {
    const value = given[name];
    if (value === undefined) continue;
    if (value !== Infinity) checkDuration(`${where}.${name}`, value);
    out[name] = value;
  }
  return out;
}

/** `1.5 s`, `300 s`, `250 ms`: a wait as a message says it. */
export function showMs(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}
