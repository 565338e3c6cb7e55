/**
 * What a history entry keeps of an operation's result, and how a saved failure comes back:
 * the result as checkpoint JSON, or the refusal to keep it (`NOT_JSON`, `TOO_LARGE`) as
 * the entry's error; a saved error is thrown again on replay as a {@link WorkflowError}.
 */
import { boundedMessage, WorkflowError } from '../errors.ts';
import { toCheckpoint } from '../json-value.ts';
import type { HistoryEntry, StoredError } from '../types.ts';

/** The error a saved failure is replayed as. */
export const replayedError = (error: StoredError): WorkflowError =>
  new WorkflowError(
    (error.code as WorkflowError['code'] | undefined) ?? 'STEP_FAILED',
    error.message,
  );

/** Puts a result into an entry: its JSON, or the refusal (`NOT_JSON`, `TOO_LARGE`) as its error. */
export function fillEntry(
  entry: HistoryEntry,
  value: unknown,
  what: string,
  maxValueBytes: number,
): void {
  try {
    const text = toCheckpoint(value, what, maxValueBytes);
    if (text !== undefined) entry.value = text;
  } catch (error) {
    const refused = error as WorkflowError;
    entry.error = {
      name: 'WorkflowError',
      code: refused.code,
      message: boundedMessage(refused.message),
    };
  }
}
