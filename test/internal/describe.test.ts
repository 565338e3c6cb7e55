import { expect, describe as group, it } from 'vitest';
import { describe } from '../../src/internal/describe.ts';

group('describe (the "received …" of error messages)', () => {
  it.each([
    [undefined, 'undefined'],
    [null, 'null'],
    ['text', '"text"'],
    [42, 'number 42'],
    [false, 'boolean false'],
    [[1, 2], 'an array'],
    [{ a: 1 }, 'an object'],
    [() => 1, 'a function'],
    [10n, 'a bigint'],
  ])('describes %o as %s', (value, expected) => {
    expect(describe(value)).toBe(expected);
  });

  it('cuts a long string at 40 characters, so a message never grows with the input', () => {
    expect(describe('x'.repeat(100_000))).toBe(`"${'x'.repeat(40)}…"`);
  });

  it('never reads the value: a hostile getter or proxy is not called', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('read');
        },
      },
    );
    expect(describe(hostile)).toBe('an object');
  });
});
