import type { Validate } from '../state.ts';
import type { JsonType } from './type.ts';

/**
 * Validators that only test a type (`{ type: 'string', description: … }`): the object
 * keyword loop tests such a property inline instead of calling it (see properties.ts).
 */
export const bareTypes = new WeakMap<Validate, JsonType>();

/** Does `value` have JSON type `type`? Written out per type, for inline use in hot loops. */
export function hasType(type: JsonType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
  }
}

function typeOnly(type: JsonType, fail: Validate): Validate {
  switch (type) {
    case 'string':
      return (data, st) => typeof data === 'string' || fail(data, st);
    case 'number':
      return (data, st) => Number.isFinite(data) || fail(data, st);
    case 'integer':
      return (data, st) => Number.isInteger(data) || fail(data, st);
    case 'boolean':
      return (data, st) => typeof data === 'boolean' || fail(data, st);
    case 'null':
      return (data, st) => data === null || fail(data, st);
    case 'object':
      return (data, st) =>
        (typeof data === 'object' && data !== null && !Array.isArray(data)) || fail(data, st);
    case 'array':
      return (data, st) => Array.isArray(data) || fail(data, st);
  }
}

/**
 * A node whose `type` names one type: the type test is written out per type (no call
 * through a shared predicate), then `rest` runs the node's other checks.
 */
export function typed(type: JsonType, rest: Validate | null, fail: Validate): Validate {
  if (rest === null) {
    const validate = typeOnly(type, fail);
    bareTypes.set(validate, type);
    return validate;
  }
  switch (type) {
    case 'string':
      return (data, st) => (typeof data === 'string' ? rest(data, st) : fail(data, st));
    case 'number':
      return (data, st) => (Number.isFinite(data) ? rest(data, st) : fail(data, st));
    case 'integer':
      return (data, st) => (Number.isInteger(data) ? rest(data, st) : fail(data, st));
    case 'boolean':
      return (data, st) => (typeof data === 'boolean' ? rest(data, st) : fail(data, st));
    case 'null':
      return (data, st) => (data === null ? rest(data, st) : fail(data, st));
    case 'object':
      return (data, st) =>
        typeof data === 'object' && data !== null && !Array.isArray(data)
          ? rest(data, st)
          : fail(data, st);
    case 'array':
      return (data, st) => (Array.isArray(data) ? rest(data, st) : fail(data, st));
  }
}
