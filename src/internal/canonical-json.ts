/**
 * Canonical JSON: one text for one value, whatever order its object keys were written in.
 * Agent argument hashes (stored with pending calls), MCP tool fingerprints (pinned by
 * clients) and approved-call keys are all built from it, so its output is a stored format:
 * for JSON data it must never change. Decision 067.
 *
 * The rule:
 * - JSON data reads exactly as `JSON.stringify` writes it, with each object's keys sorted
 *   by UTF-16 code unit (`Array.prototype.sort`'s order) and no white space.
 * - `undefined`, functions and symbols follow `JSON.stringify`: left out as an object's
 *   member, `null` as an array item, and `undefined` (no text) as the whole value, so each
 *   caller says what a missing value means for it.
 * - Numbers JSON cannot hold (`NaN`, `±Infinity`) read `null`, `-0` reads `0`, as in JSON.
 * - Any other object reads as its own enumerable string keys: `toJSON` is not called
 *   (a `Date` reads `{}`), so hashing never runs a method of the value.
 * - A bigint or a cycle throws a `TypeError`; nesting of any depth is walked without
 *   recursion, so deep input cannot overflow the stack.
 */

/** An object or array being written: its keys (none for an array) and the next index. */
interface Frame {
  value: object;
  keys: readonly string[] | undefined;
  next: number;
  empty: boolean;
}

/**
 * `value` as canonical JSON text (see the rule above); `undefined` when the value itself
 * has no JSON text (`undefined`, a function, a symbol).
 *
 * @example
 * ```ts
 * import { canonicalJson } from './canonical-json.ts';
 *
 * canonicalJson({ b: [1, undefined], a: 'x', c: undefined }); // '{"a":"x","b":[1,null]}'
 * canonicalJson(undefined); // undefined
 * ```
 */
export function canonicalJson(value: object): string;
export function canonicalJson(value: unknown): string | undefined;
export function canonicalJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return leafJson(value);
  const out: string[] = [];
  const open = new Set<object>();
  const stack: Frame[] = [];
  const enter = (container: object): void => {
    if (open.has(container)) {
      throw new TypeError('canonicalJson: expected a value without cycles, received a cycle');
    }
    open.add(container);
    const isArray = Array.isArray(container);
    stack.push({
      value: container,
      keys: isArray ? undefined : Object.keys(container).sort(),
      next: 0,
      empty: true,
    });
    out.push(isArray ? '[' : '{');
  };
  enter(value);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const { keys } = frame;
    const length = keys === undefined ? (frame.value as unknown[]).length : keys.length;
    if (frame.next >= length) {
      out.push(keys === undefined ? ']' : '}');
      open.delete(frame.value);
      stack.pop();
      continue;
    }
    const index = frame.next++;
    const key = keys === undefined ? undefined : keys[index];
    const item =
      key === undefined
        ? (frame.value as unknown[])[index]
        : (frame.value as Record<string, unknown>)[key];
    const isContainer = typeof item === 'object' && item !== null;
    const text = isContainer ? undefined : leafJson(item);
    if (key !== undefined && !isContainer && text === undefined) continue;
    if (!frame.empty) out.push(',');
    frame.empty = false;
    if (key !== undefined) out.push(JSON.stringify(key), ':');
    if (isContainer) enter(item);
    else out.push(text ?? 'null');
  }
  return out.join('');
}

/** The JSON text of a value that is not an object; `undefined` where JSON has none. */
function leafJson(value: unknown): string | undefined {
  if (typeof value === 'bigint') {
    throw new TypeError(`canonicalJson: expected a JSON value, received bigint ${value}n`);
  }
  return JSON.stringify(value);
}
