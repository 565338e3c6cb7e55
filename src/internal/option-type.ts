/**
 * One rule for an optional option of a plain type across the package: `undefined` leaves the
 * default, anything else must have the type, and the refusal names the option and what it
 * received ("mcpClient: onLog: expected a function, received string "x"", decision 067).
 * Each module throws its own error class with the message.
 */
import { describeValue } from './describe-value.ts';

/** The `typeof` names an optional option is checked against, and the types they stand for. */
interface OptionTypes {
  string: string;
  boolean: boolean;
  function: (...args: never[]) => unknown;
}

/** A `typeof` name {@link checkOptionalType} checks against. */
export type OptionType = keyof OptionTypes;

/** The error most modules refuse a bad option with: a `TypeError` carrying the message. */
export function typeError(message: string): TypeError {
  return new TypeError(message);
}

/**
 * Throws `error(message)` unless `value` is `undefined` or of type `type`; `name` is how the
 * message names the option, with the module's prefix (`'oauth: clientId'`).
 *
 * @example
 * ```ts
 * import { checkOptionalType, typeError } from './option-type.ts';
 *
 * checkOptionalType(undefined, 'string', 'oauth: clientId', typeError); // fine
 * checkOptionalType(1, 'string', 'oauth: clientId', typeError);
 * // TypeError: oauth: clientId: expected a string, received number 1
 * ```
 */
export function checkOptionalType<T extends OptionType>(
  value: unknown,
  type: T,
  name: string,
  error: (message: string) => Error,
): asserts value is OptionTypes[T] | undefined {
  if (value !== undefined && typeof value !== type) {
    throw error(`${name}: expected a ${type}, received ${describeValue(value)}`);
  }
}
