/** How values read in messages: exact for numbers JSON cannot hold, short and safe for hostile values. */
import { describe, expect, it } from 'vitest';
import {
  describeError,
  describeValue,
  MAX_SHOWN,
  showValue,
} from '../../../src/validate/compiler/describe.ts';
import { compile, formatIssues } from '../../../src/validate/index.ts';

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

  it('says so in a validation message and in the schema-like check', () => {
    const result = compile({ type: 'integer' }).safeParse(Number.NaN);
    expect(result.success ? '' : formatIssues(result.issues)).toBe(
      '<root>: expected integer, received number NaN',
    );
    expect(() => compile(Number.POSITIVE_INFINITY as never)).toThrow('received number Infinity');
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

describe('describeError', () => {
  it('names the error on one short line', () => {
    expect(describeError(new TypeError('boom\nagain'))).toBe('TypeError: boom again');
    expect(describeError('str')).toBe('thrown string "str"');
    expect(describeError(new Error('y'.repeat(1000))).length).toBeLessThanOrEqual(MAX_SHOWN);
    const hostile = new Proxy(new Error('x'), {
      get() {
        throw new Error('no');
      },
    });
    expect(typeof describeError(hostile)).toBe('string');
  });
});
