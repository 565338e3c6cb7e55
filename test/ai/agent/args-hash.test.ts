import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsHash } from '../../../src/ai/agent/args-hash.ts';

describe('argsHash', () => {
  it('ignores key order at every level', () => {
    expect(argsHash({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(
      argsHash({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
  });

  it('tells different arguments apart', () => {
    expect(argsHash({ path: 'a' })).not.toBe(argsHash({ path: 'b' }));
    expect(argsHash([1, 2])).not.toBe(argsHash([2, 1]));
    expect(argsHash('1')).not.toBe(argsHash(1));
  });

  it('is the same after a JSON round trip', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(argsHash(JSON.parse(JSON.stringify(value)))).toBe(argsHash(value));
      }),
    );
  });
});
