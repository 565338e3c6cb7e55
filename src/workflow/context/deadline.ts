/**
 * The latest deadline a durable wait may have: timers and signal timeouts are saved as
 * epoch milliseconds and shown as dates, so a deadline past the last date JavaScript can
 * represent would be saved but never shown. Refused when the wait is reached.
 */
import { WorkflowError } from '../errors.ts';

/** The latest deadline of a timer or signal timeout: 8.64e15 ms, +275760-09-13T00:00:00.000Z. */
export const MAX_DEADLINE_MS = 8.64e15;

/** `INVALID_ARGUMENT` naming `where` and the limit when `dueAt` (epoch ms) is past {@link MAX_DEADLINE_MS}. */
export function checkDeadline(dueAt: number, where: string): void {
  if (dueAt <= MAX_DEADLINE_MS) return;
  throw new WorkflowError(
    'INVALID_ARGUMENT',
    `${where}: the deadline would be ${dueAt} ms after the epoch, past the latest a durable wait may have (${MAX_DEADLINE_MS} ms, ${new Date(MAX_DEADLINE_MS).toISOString()}); wait in shorter spans`,
  );
}
