/**
 * How a received value reads in a message, one rule for the whole package ("expected …,
 * received string "abc"", decision 067). Every helper here is safe on any value: it never
 * throws, never calls `toJSON`, and writes at most {@link MAX_SHOWN} characters, so a
 * hostile value (a throwing getter, a revoked Proxy, a megabyte string, a cycle, deep
 * nesting) cannot crash or bloat a message.
 */

/** The longest excerpt of a value shown in a message, "…" included. */
export const MAX_SHOWN = 80;

/** A text cut to `MAX_SHOWN` characters with "…" when longer (never inside a surrogate pair). */
export function cut(text: string): string {
  if (text.length <= MAX_SHOWN) return text;
  let end = MAX_SHOWN - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Collects the text of an excerpt and takes no more once it is longer than the limit. */
class Excerpt {
  text = '';
  full = false;

  add(part: string): void {
    if (this.full) return;
    this.text += part.length > MAX_SHOWN ? part.slice(0, MAX_SHOWN + 1) : part;
    this.full = this.text.length > MAX_SHOWN;
  }

  /** Ends the excerpt early, marking the cut. */
  stop(): void {
    if (!this.full) this.text += '…';
    this.full = true;
  }
}

/** Writes `value` into `out`; each level adds a bracket, so the depth is bounded by the limit. */
function write(value: unknown, out: Excerpt): void {
  switch (typeof value) {
    case 'string':
      out.add(JSON.stringify(value.length > MAX_SHOWN ? value.slice(0, MAX_SHOWN + 1) : value));
      return;
    case 'number':
    case 'boolean':
      out.add(String(value));
      return;
    case 'bigint':
      out.add(`${value}n`);
      return;
    case 'symbol':
      out.add(value.toString());
      return;
    case 'function':
      out.add('function');
      return;
    case 'undefined':
      out.add('undefined');
      return;
  }
  if (value === null) {
    out.add('null');
    return;
  }
  const isArray = typeName(value) === 'array';
  out.add(isArray ? '[' : '{');
  try {
    if (isArray) {
      const array = value as unknown[];
      for (let i = 0; i < array.length && !out.full; i++) {
        if (i > 0) out.add(',');
        write(array[i], out);
      }
      out.add(']');
      return;
    }
    let first = true;
    for (const key of Object.keys(value as object)) {
      if (out.full) break;
      if (!first) out.add(',');
      first = false;
      write(key, out);
      out.add(':');
      write((value as Record<string, unknown>)[key], out);
    }
    out.add('}');
  } catch {
    // A getter or Proxy trap threw: show what was read, then stop.
    out.stop();
  }
}

/**
 * JSON-like text of a value, cut to a readable length (`"aaaa…`, `{"a":1,…`); numbers JSON
 * cannot hold read `NaN`, `Infinity`, `-Infinity`, a bigint `5n`. For quoting a value
 * inside a sentence (`unknown option "colour"`); {@link describeValue} is for "received …".
 */
export function showValue(value: unknown): string {
  // The leaves most messages show, without an Excerpt: the same text `write` builds.
  if (typeof value === 'string') {
    const json = JSON.stringify(value.length > MAX_SHOWN ? value.slice(0, MAX_SHOWN + 1) : value);
    return cut(json.length > MAX_SHOWN ? json.slice(0, MAX_SHOWN + 1) : json);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return cut(String(value));
  const out = new Excerpt();
  write(value, out);
  return cut(out.text);
}

/** The JSON type name of a value: `null`, `array`, `object`, `string`, `number`, `boolean`, … */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  try {
    if (Array.isArray(value)) return 'array';
  } catch {
    // A revoked Proxy: an object whose contents cannot be read.
  }
  return typeof value;
}

/** Options of {@link describeValue}. */
export interface DescribeOptions {
  /**
   * Also show the contents of an object or array (`object {"a":1}`), for messages about a
   * small value the caller wrote, such as a schema keyword. Default `false`: the type alone.
   */
  contents?: boolean;
}

/**
 * How a received value reads after "received": its type, then the value itself for
 * primitives (`string "abc"`, `number 1.5`, `number NaN`, `boolean true`, `bigint 5n`), the
 * type alone for `null`, `undefined`, functions, arrays and objects (with their contents
 * when `options.contents` is set).
 *
 * @example
 * ```ts
 * import { describeValue } from './describe-value.ts';
 *
 * describeValue('abc'); // 'string "abc"'
 * describeValue([1, 2]); // 'array'
 * describeValue({ a: 1 }, { contents: true }); // 'object {"a":1}'
 * ```
 */
export function describeValue(value: unknown, options?: DescribeOptions): string {
  const type = typeName(value);
  if (type === 'array' || type === 'object') {
    return options?.contents === true ? `${type} ${showValue(value)}` : type;
  }
  if (type === 'null' || type === 'undefined' || type === 'function') return type;
  return `${type} ${showValue(value)}`;
}
