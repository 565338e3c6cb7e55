/**
 * What a session checks and decides about threads before the store sees them: thread
 * ids, page bounds, how many tokens of a thread a start loads, and what a start on a
 * busy thread does (decision 148).
 */
import { describeValue } from '../../internal/describe-value.ts';
import { checkDuration } from '../../internal/duration.ts';
import type { Model } from '../model/index.ts';
import { SessionError } from './errors.ts';
import { DEFAULT_THREAD_TOKENS } from './store/index.ts';
import type { SessionAgent } from './types.ts';

/** The `threads` option of `session()`. */
export interface ThreadOptions {
  /**
   * What `start` does on a thread whose earlier run is unfinished (running, suspended,
   * ready, or failed and not cancelled): `'reject'` (the default) throws `THREAD_BUSY`
   * naming that run; `'wait'` waits for the thread to be free, up to `waitMs`, then
   * throws `THREAD_BUSY`. Either way two runs of one thread never interleave.
   */
  busy?: 'reject' | 'wait';
  /** With `busy: 'wait'`, how long a start waits, in milliseconds (default 60 000). */
  waitMs?: number;
  /**
   * How many tokens of a thread's newest messages a start loads (default: the agent's
   * `context.maxTokens`, else its `model.limits.contextWindow`, else 32 000). Older
   * messages stay stored and readable with `thread()`; the thread's latest summary
   * stands for them.
   */
  maxTokens?: number;
}

/** The longest thread id a session accepts. */
export const MAX_THREAD_ID_LENGTH = 256;
/** The most messages one `thread()` page holds. */
export const MAX_THREAD_PAGE = 1000;
const DEFAULT_THREAD_PAGE = 100;
const DEFAULT_WAIT_MS = 60_000;

/** Control characters (C0, DEL, C1): a thread id is printed in terminals and logs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `INVALID_ARGUMENT` naming `where` unless `value` is a thread id: 1–256 characters, no control characters. */
export function checkThreadId(value: unknown, where: string): asserts value is string {
  if (
    typeof value !== 'string' ||
    value === '' ||
    value.length > MAX_THREAD_ID_LENGTH ||
    CONTROL.test(value)
  ) {
    const received =
      typeof value === 'string' && value.length > MAX_THREAD_ID_LENGTH
        ? `a string of ${value.length} characters`
        : typeof value === 'string' && CONTROL.test(value)
          ? `${JSON.stringify(value.slice(0, 80))} (control characters)`
          : describeValue(value);
    throw new SessionError(
      'INVALID_ARGUMENT',
      `${where}: expected a thread id (a non-empty string of at most ${MAX_THREAD_ID_LENGTH} characters without control characters), received ${received}`,
    );
  }
}

/** `INVALID_ARGUMENT` unless `value` is absent or a whole number in [min, max]. */
export function checkCount(
  value: unknown,
  where: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `${where}: expected an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, received ${describeValue(value)}`,
    );
  }
  return value;
}

/** The page bounds of `thread()`, checked, with the default limit. */
export function threadPage(options: unknown): { before?: number; limit: number } {
  if (options === null || typeof options !== 'object') {
    throw new SessionError(
      'INVALID_ARGUMENT',
      `thread(threadId, options): expected { before?, limit? }, received ${describeValue(options)}`,
    );
  }
  const { before, limit } = options as { before?: unknown; limit?: unknown };
  const page: { before?: number; limit: number } = {
    limit: checkCount(limit, 'thread: limit', 1, MAX_THREAD_PAGE) ?? DEFAULT_THREAD_PAGE,
  };
  const from = checkCount(before, 'thread: before', 0);
  if (from !== undefined) page.before = from;
  return page;
}

/** The session's thread settings, checked at construction. */
export interface ThreadSettings {
  busy: 'reject' | 'wait';
  waitMs: number;
  /** The tokens a start loads. */
  maxTokens: number;
  /** The model the stored token estimates are made for, when the agent names one. */
  model?: Model;
}

/** Reads the `threads` option of `session()`; `RangeError`/`TypeError` naming the bad field. */
export function threadSettings(
  options: ThreadOptions | undefined,
  agent: SessionAgent | undefined,
): ThreadSettings {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(
      `session: threads: expected { busy?, waitMs?, maxTokens? }, received ${describeValue(options)}`,
    );
  }
  const busy = options?.busy ?? 'reject';
  if (busy !== 'reject' && busy !== 'wait') {
    throw new TypeError(
      `session: threads.busy: expected 'reject' or 'wait', received ${describeValue(busy)}`,
    );
  }
  const waitMs = checkDuration(
    'session: threads.waitMs',
    options?.waitMs ?? DEFAULT_WAIT_MS,
    'nonNegative',
  );
  // An agent of fino:ai/agent names its model and context budget; another SessionAgent may not.
  const { model, contextTokens } = (agent ?? {}) as { model?: Model; contextTokens?: number };
  const maxTokens =
    options?.maxTokens ?? contextTokens ?? model?.limits?.contextWindow ?? DEFAULT_THREAD_TOKENS;
  if (!Number.isSafeInteger(maxTokens) || maxTokens < 1) {
    throw new RangeError(
      `session: threads.maxTokens: expected a positive integer, received ${describeValue(maxTokens)}`,
    );
  }
  return { busy, waitMs, maxTokens, ...(model !== undefined && { model }) };
}

/**
 * Runs `take` until the thread is free: at once with `busy: 'reject'`; with `'wait'`,
 * again after growing pauses (25 ms to 1 s) while it throws `THREAD_BUSY`, until
 * `waitMs` has passed or `signal` aborts.
 */
export async function whenThreadFree<T>(
  settings: ThreadSettings,
  take: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const deadline = Date.now() + settings.waitMs;
  let pause = 25;
  for (;;) {
    try {
      return await take();
    } catch (error) {
      const busy = error instanceof SessionError && error.code === 'THREAD_BUSY';
      if (!busy || settings.busy === 'reject' || Date.now() + pause > deadline) throw error;
      signal?.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, pause));
      signal?.throwIfAborted();
      pause = Math.min(pause * 2, 1000);
    }
  }
}
