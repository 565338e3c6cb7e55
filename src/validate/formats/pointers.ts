const POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;
const RELATIVE_POINTER = /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/;

/** RFC 6901 JSON Pointer: `''`, `/a/0`, `/a~1b` (`~` only as `~0` or `~1`). */
export const isJsonPointer = (value: string): boolean => POINTER.test(value);

/** Relative JSON Pointer: a non-negative integer, then `#` or a JSON Pointer (`0/a`, `1#`). */
export const isRelativeJsonPointer = (value: string): boolean => RELATIVE_POINTER.test(value);
