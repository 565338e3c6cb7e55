import type { Validate } from '../state.ts';
import type { JsonType } from './type.ts';

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
  if (rest === null) return typeOnly(type, fail);
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
