/**
 * How values read in messages. Every helper here is safe on any value: it never throws,
 * never calls `toJSON`, and writes at most {@link MAX_SHOWN} characters, so a hostile value
 * (a throwing getter, a revoked Proxy, a megabyte string, a cycle) cannot crash or bloat a
 * message.
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
 * cannot hold read `NaN`, `Infinity`, `-Infinity`, a bigint `5n`.
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

/**
 * How a received value reads in a message: its type, then the value itself for
 * primitives (`string "abc"`, `number 1.5`, `number NaN`, `boolean true`), the type alone for
 * `null`, arrays and objects.
 */
export function describeValue(value: unknown): string {
  const type = typeName(value);
  if (type === 'null' || type === 'array' || type === 'object' || type === 'undefined') return type;
  if (type === 'function') return 'function';
  return `${type} ${showValue(value)}`;
}

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
