import { describeValue } from '../describe.ts';
import { report, type Validate } from '../state.ts';
import { maskOf, typeBits } from './leaf.ts';
import type { NodeScope } from './scope.ts';

/** The JSON types a value can be checked against. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

const TYPES: ReadonlySet<string> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'null',
  'object',
  'array',
]);

/** A predicate for one JSON type. Numbers must be finite: JSON has no NaN or Infinity. */
export function isType(type: JsonType): (value: unknown) => boolean {
  switch (type) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'number':
      return (value) => typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return (value) => Number.isInteger(value);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'null':
      return (value) => value === null;
    case 'object':
      return (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return (value) => Array.isArray(value);
  }
}

/** The types listed by `type`, checked at compile time; undefined when the keyword is absent. */
export function readTypes(scope: NodeScope): JsonType[] | undefined {
  const { read } = scope;
  if (!read.has('type')) return undefined;
  const value = read.schema.type;
  const types = Array.isArray(value) ? value : [value];
  if (types.length === 0 || !types.every((type) => typeof type === 'string' && TYPES.has(type))) {
    read.fail(
      'type',
      'a JSON type name or an array of them (string, number, integer, boolean, null, object, array)',
    );
  }
  return types as JsonType[];
}

/** The `type` keyword. */
export function compileType(types: readonly JsonType[]): {
  test: (value: unknown) => boolean;
  check: Validate;
} {
  const mask = maskOf(types);
  const test =
    types.length === 1 ? isType(types[0]) : (value: unknown) => (typeBits(value) & mask) !== 0;
  const expected = types.length === 1 ? types[0] : types.join(' or ');
  const check: Validate = (data, st) =>
    test(data) ||
    (st.issues !== null &&
      report(st, 'type', `expected ${expected}, received ${describeValue(data)}`, data));
  return { test, check };
}
