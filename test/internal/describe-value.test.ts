/** How received values read in messages (decision 067): exact, short, and safe for hostile values. */
import { describe, expect, it } from 'vitest';
import { describeValue, MAX_SHOWN, showValue } from '../../src/internal/describe-value.ts';

describe('showValue on strings', () => {
  it('cuts a long or escaped string at the same place, keeping surrogate pairs whole', () => {
    expect(showValue('a'.repeat(80))).toBe(`"${'a'.repeat(78)}…`);
    expect(showValue('a'.repeat(78))).toBe(`"${'a'.repeat(78)}"`);
    expect(showValue('"'.repeat(50))).toBe(`"${'\\"'.repeat(39)}…`);
    expect(showValue(`${'a'.repeat(77)}😀b`)).toBe(`"${'a'.repeat(77)}…`);
    expect(showValue(true)).toBe('true');
  });
});

describe('describeValue', () => {
  it('names NaN and the infinities (issue 9.11)', () => {
    expect(describeValue(Number.NaN)).toBe('number NaN');
    expect(describeValue(Number.POSITIVE_INFINITY)).toBe('number Infinity');
    expect(describeValue(Number.NEGATIVE_INFINITY)).toBe('number -Infinity');
    expect(showValue([Number.NaN, 1])).toBe('[NaN,1]');
  });

  it('never calls toJSON and never throws', () => {
    const toJSON = () => {
      throw new Error('toJSON ran');
    };
    expect(showValue({ a: 1, toJSON })).toBe('{"a":1,"toJSON":function}');
    const getter = Object.defineProperty({ a: 1 }, 'b', {
      enumerable: true,
      get() {
        throw new Error('getter ran');
      },
    });
    expect(showValue(getter)).toBe('{"a":1,"b":…');
    const trap = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    expect(showValue(trap)).toBe('{…');
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(describeValue(proxy)).toBe('object');
    expect(showValue(proxy)).toBe('{…');
  });

  it('cuts long and deep values to the limit', () => {
    const long = showValue('x'.repeat(10_000_000));
    expect(long.length).toBeLessThanOrEqual(MAX_SHOWN);
    expect(long.endsWith('…')).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(showValue(cyclic).length).toBeLessThanOrEqual(MAX_SHOWN);
    expect(showValue(Array(1_000_000).fill(1)).length).toBeLessThanOrEqual(MAX_SHOWN);
    expect(showValue('💩'.repeat(100)).endsWith('💩…')).toBe(true);
  });
});

describe('describeValue wording', () => {
  it('names the type, then the value of a primitive', () => {
    expect(describeValue('abc')).toBe('string "abc"');
    expect(describeValue(1.5)).toBe('number 1.5');
    expect(describeValue(false)).toBe('boolean false');
    expect(describeValue(5n)).toBe('bigint 5n');
    expect(describeValue(Symbol('s'))).toBe('symbol Symbol(s)');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue(() => 1)).toBe('function');
    expect(describeValue([1])).toBe('array');
    expect(describeValue({ a: 1 })).toBe('object');
  });

  it('shows the contents of an object or array when asked', () => {
    expect(describeValue({ a: 1 }, { contents: true })).toBe('object {"a":1}');
    expect(describeValue([1, 'x'], { contents: true })).toBe('array [1,"x"]');
    expect(describeValue('abc', { contents: true })).toBe('string "abc"');
    expect(describeValue(Array(1000).fill('x'), { contents: true }).length).toBeLessThanOrEqual(
      MAX_SHOWN + 'array '.length,
    );
  });
});
