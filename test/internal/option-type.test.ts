import { describe, expect, it } from 'vitest';
import { checkOptionalType, typeError } from '../../src/internal/option-type.ts';

describe('checkOptionalType', () => {
  it('accepts undefined and a value of the type', () => {
    expect(() => checkOptionalType(undefined, 'function', 'x: f', typeError)).not.toThrow();
    expect(() => checkOptionalType(() => 1, 'function', 'x: f', typeError)).not.toThrow();
    expect(() => checkOptionalType(false, 'boolean', 'x: b', typeError)).not.toThrow();
  });

  it('throws the module error naming the option and what it received', () => {
    expect(() => checkOptionalType(1, 'string', 'oauth: clientId', typeError)).toThrow(
      new TypeError('oauth: clientId: expected a string, received number 1'),
    );
    expect(() => checkOptionalType(null, 'boolean', 'x: b', (m) => new RangeError(m))).toThrow(
      RangeError,
    );
  });
});
