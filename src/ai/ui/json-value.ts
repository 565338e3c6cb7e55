/**
 * A posted JSON value checked and copied: only plain objects, arrays, strings, finite
 * numbers, booleans and null, nested at most `depth` deep, without the keys that pollute
 * prototypes (`__proto__`, `constructor.prototype`, as secure JSON parsers refuse them).
 * The copy is the caller's alone: a getter, a Proxy or a class instance of the input
 * never reaches it (decision 248).
 */
import { describeValue } from '../../internal/describe-value.ts';
import { invalidMessages } from './ui-request-error.ts';

/** A checked copy of the JSON value at `path`, or a 400 naming where it is not one. */
export function checkedJson(value: unknown, path: string, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw invalidMessages(path, 'a JSON value (a finite number)', describeValue(value));
  }
  if (typeof value !== 'object') {
    throw invalidMessages(path, 'a JSON value', describeValue(value));
  }
  if (depth <= 0) {
    throw invalidMessages(path, 'a JSON value nested less deep', 'deeper nesting');
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => checkedJson(item, `${path}[${i}]`, depth - 1));
  }
  const copy: Record<string, unknown> = {};
  for (const [key, field] of plainEntries(value, path)) {
    if (field !== undefined) copy[key] = checkedJson(field, `${path}.${key}`, depth - 1);
  }
  return copy;
}

/**
 * The own fields of a plain object (a 400 for anything else, and for a prototype-polluting
 * key), read without calling a getter.
 */
export function plainEntries(value: object, path: string): Array<[string, unknown]> {
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    throw invalidMessages(path, 'a plain JSON object', `an instance of another kind`);
  }
  const entries: Array<[string, unknown]> = [];
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (key === '__proto__') {
      throw invalidMessages(`${path}.__proto__`, 'no "__proto__" key', 'one');
    }
    if (!('value' in descriptor)) {
      throw invalidMessages(`${path}.${key}`, 'a JSON value', 'an accessor');
    }
    if (key === 'constructor' && isPrototypeHolder(descriptor.value)) {
      throw invalidMessages(
        `${path}.constructor.prototype`,
        'no "constructor.prototype" key',
        'one',
      );
    }
    entries.push([key, descriptor.value]);
  }
  return entries;
}

const isPrototypeHolder = (value: unknown) =>
  typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype');

/** Whether `value` is an object that is not an array (before its fields are checked). */
export const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
