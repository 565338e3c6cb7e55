/** Validation messages describe values with the package rule (test/internal/describe-value.test.ts), and thrown errors on one short line. */
import { describe, expect, it } from 'vitest';
import { MAX_SHOWN } from '../../../src/internal/describe-value.ts';
import { describeError } from '../../../src/validate/compiler/describe.ts';
import { compile, formatIssues } from '../../../src/validate/index.ts';

describe('describeValue in validation messages', () => {
  it('says so in a validation message and in the schema-like check', () => {
    const result = compile({ type: 'integer' }).safeParse(Number.NaN);
    expect(result.success ? '' : formatIssues(result.issues)).toBe(
      '<root>: expected integer, received number NaN',
    );
    expect(() => compile(Number.POSITIVE_INFINITY as never)).toThrow('received number Infinity');
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
