/**
 * `ctx.progress()`: how far a call is, checked once here and handed to whatever the
 * caller listens with (an MCP client, an agent stream, a terminal). Decision 094.
 */

import { describeValue } from '../internal/describe-value.ts';
import type { Progress } from './types.ts';

/** The longest progress message passed on; longer ones are cut. */
const MAX_MESSAGE_CHARS = 500;

/**
 * A clean copy of a progress update, or a `TypeError` naming the field that is wrong:
 * `progress` a finite number ≥ 0, `total` (optional) a finite number > 0, `message`
 * (optional) a string, cut to 500 characters.
 */
export function checkProgress(update: Progress): Progress {
  if (typeof update !== 'object' || update === null) {
    throw new TypeError(
      `progress: expected { progress, total?, message? }, received ${describeValue(update)}`,
    );
  }
  const { progress, total, message } = update;
  if (typeof progress !== 'number' || !Number.isFinite(progress) || progress < 0) {
    throw new TypeError(
      `progress.progress: expected a finite number ≥ 0, received ${describeValue(progress)}`,
    );
  }
  const clean: Progress = { progress };
  if (total !== undefined) {
    if (typeof total !== 'number' || !Number.isFinite(total) || total <= 0) {
      throw new TypeError(
        `progress.total: expected a finite number > 0, received ${describeValue(total)}`,
      );
    }
    clean.total = total;
  }
  if (message !== undefined) {
    if (typeof message !== 'string') {
      throw new TypeError(
        `progress.message: expected a string, received ${describeValue(message)}`,
      );
    }
    clean.message = message.slice(0, MAX_MESSAGE_CHARS);
  }
  return clean;
}

/**
 * The context's `progress`: checks each update and passes it to the caller's receiver.
 * A receiver that throws does not fail the call: progress is advisory.
 */
export function progressReporter(receiver: ((update: Progress) => void) | undefined) {
  return (update: Progress): void => {
    const clean = checkProgress(update);
    try {
      receiver?.(clean);
    } catch {
      // A broken progress display must not break the work it displays.
    }
  };
}
