/**
 * The rule for a name or an id the workflow store keeps and shows (a stream's, a query's
 * or an update's name, an update id, a schedule id): 1 to 200 characters of text without
 * control characters or lone surrogates — a NUL or a lone surrogate cannot be stored in
 * PostgreSQL (SQLite stores a lone surrogate changed, so the name no longer finds its
 * row), and a newline or an escape code would garble every listing that prints it.
 */
import { isPrintableText } from '../internal/printable-text.ts';
import { WorkflowError } from './errors.ts';

/** The longest name or id, in characters. */
export const MAX_NAME_CHARS = 200;

export { isPrintableText };

/** `INVALID_ARGUMENT` naming `what` unless `value` is a name as the header says. */
export function checkPrintableName(value: unknown, what: string): asserts value is string {
  if (isPrintableText(value) && value.length <= MAX_NAME_CHARS) return;
  const received =
    typeof value === 'string'
      ? `${JSON.stringify(value.slice(0, 80))} (${value.length} characters)`
      : value === null
        ? 'null'
        : typeof value;
  throw new WorkflowError(
    'INVALID_ARGUMENT',
    `${what}: expected 1 to ${MAX_NAME_CHARS} characters of text without control characters or lone surrogates, received ${received}`,
  );
}
