/**
 * What a workflow may checkpoint: values with one exact JSON form (so a replay returns
 * what the first execution saw), no larger than a limit (so one step cannot bloat the
 * history every replay reads). Decision 137.
 */
import { typeName } from '../internal/describe-value.ts';
import { errorMessage } from '../internal/thrown-value.ts';
import { WorkflowError } from './errors.ts';

/** The default largest checkpointed value: 2 MiB of JSON, as Temporal's payload limit. */
export const DEFAULT_MAX_VALUE_BYTES = 2 * 1024 * 1024;

/** The deepest nesting a checkpointed value may have. */
const MAX_DEPTH = 256;

/**
 * `value` as JSON text (`undefined` for `undefined`), after checking that JSON holds it
 * exactly: `null`, booleans, strings, finite numbers, arrays and plain objects only.
 * `NOT_JSON` names `what` and the path of the first value JSON would change (a `Date`
 * read back as a string, `NaN` as `null`, a `Map` as `{}`); `TOO_LARGE` names `what`,
 * its size and the limit.
 */
export function toCheckpoint(value: unknown, what: string, maxBytes: number): string | undefined {
  if (value === undefined) return undefined;
  let problem: string | undefined;
  try {
    problem = notJson(value, '', 0, new Set());
  } catch (error) {
    problem = `it cannot be read (${errorMessage(error)})`;
  }
  if (problem) {
    throw new WorkflowError(
      'NOT_JSON',
      `${what} must be JSON (null, boolean, string, finite number, array or plain object): ${problem}`,
    );
  }
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) {
    throw new WorkflowError(
      'TOO_LARGE',
      `${what} is ${bytes} bytes of JSON, more than the limit of ${maxBytes} (maxValueBytes); keep large data outside the workflow and checkpoint a reference to it`,
    );
  }
  return text;
}

/** The value JSON text stands for (`undefined` for no text). */
export const fromCheckpoint = (text: string | undefined | null): unknown =>
  text === undefined || text === null ? undefined : JSON.parse(text);

/** Why `value` has no exact JSON form, or `undefined` when it has one. */
function notJson(
  value: unknown,
  path: string,
  depth: number,
  seen: Set<object>,
): string | undefined {
  const at = path === '' ? 'the value' : `at ${path}`;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${at} is ${value}, which JSON cannot hold`;
    case 'object': {
      if (value === null) return undefined;
      if (depth >= MAX_DEPTH) return `${at} is nested deeper than ${MAX_DEPTH} levels`;
      if (seen.has(value)) return `${at} refers back to itself (a cycle)`;
      const isArray = Array.isArray(value);
      const proto = Object.getPrototypeOf(value);
      if (!isArray && proto !== Object.prototype && proto !== null) {
        const name = (proto?.constructor as { name?: unknown } | undefined)?.name;
        return `${at} is ${typeof name === 'string' && name ? `a ${name}` : 'an object with a prototype'}, not a plain object (convert it first, e.g. a Date to toISOString())`;
      }
      seen.add(value);
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        const where = isArray ? `${path}[${key}]` : `${path}.${key}`;
        if (item === undefined && !isArray) continue; // JSON drops it; reads back as absent
        const problem = notJson(item, where, depth + 1, seen);
        if (problem) return problem;
      }
      seen.delete(value);
      return undefined;
    }
    default:
      return `${at} is ${typeName(value)}, which JSON cannot hold`;
  }
}
