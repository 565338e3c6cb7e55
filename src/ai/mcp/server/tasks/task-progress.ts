/**
 * `ctx.progress()` of a task's tool: the task's status message (what `tasks/get` shows),
 * written through the shared throttled writer, and `notifications/progress` to the
 * client that created the task, for the task's lifetime (decision 118).
 */
import { throttledWriter } from '../../../../internal/throttled-writer.ts';
import type { Progress } from '../../../../task/index.ts';
import type { ProgressNotifier } from '../progress-notifier.ts';

/** The shortest time between two status-message writes of one task. */
const STATUS_WRITE_MS = 250;

/**
 * A task's progress: each update goes to `notifier` (when its client asked for progress)
 * and becomes the status message, stored by `writeStatus` at most every
 * {@link STATUS_WRITE_MS}; `flush()` stores the latest before the task's outcome.
 */
export function taskProgress(
  notifier: ProgressNotifier | undefined,
  writeStatus: (message: string) => Promise<unknown>,
): ProgressNotifier {
  const status = throttledWriter(writeStatus, STATUS_WRITE_MS);
  return {
    report(update: Progress) {
      notifier?.report(update);
      status.report(update.message ?? progressText(update));
    },
    async flush() {
      await status.flush();
      await notifier?.flush();
    },
  };
}

/** A status message for an update without a message: "3 of 10". */
const progressText = (update: Progress) =>
  `${update.progress}${update.total !== undefined ? ` of ${update.total}` : ''}`;
