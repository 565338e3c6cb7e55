/**
 * How values read in validation messages: the package's rule for a received value
 * (`src/internal/describe-value.ts`), plus lists of allowed values and thrown errors.
 * Like the rule, nothing here throws or writes more than `MAX_SHOWN` characters.
 */
import { cut, describeValue, showValue } from '../../internal/describe-value.ts';

export { describeValue, showValue, typeName } from '../../internal/describe-value.ts';

/** A list of allowed values for a message: `"a", "b", "c"` (long lists cut after 20). */
export function showList(values: readonly unknown[]): string {
  const shown = values.slice(0, 20).map(showValue).join(', ');
  return values.length > 20 ? `${shown}, … (${values.length} in all)` : shown;
}

/**
 * A thrown value described for a message: `TypeError: boom`, cut like {@link showValue}.
 * Reads the error's `name` and `message` defensively (a hostile error may throw there too).
 */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) {
      const name = typeof error.name === 'string' ? error.name : 'Error';
      const message = typeof error.message === 'string' ? error.message : '';
      return cut((message === '' ? name : `${name}: ${message}`).replace(/\s+/g, ' '));
    }
  } catch {
    // fall through: describe it as a thrown value
  }
  return `thrown ${describeValue(error)}`;
}
