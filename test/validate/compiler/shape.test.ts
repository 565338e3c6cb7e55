import { describe, expect, it } from 'vitest';
import { compile } from '../../../src/validate/index.ts';

/** The fast pass (shape.ts, through `is`) and the collecting pass (the closures) must agree. */
function verdicts(schema: Record<string, unknown>, cases: Array<[unknown, boolean]>) {
  const validator = compile(schema);
  for (const [data, expected] of cases) {
    expect({ data, is: validator.is(data) }).toEqual({ data, is: expected });
    const result = validator.safeParse(data);
    expect({ data, safeParse: result.success }).toEqual({ data, safeParse: expected });
    if (!result.success) expect(result.issues[0].keyword).not.toBe('schema');
  }
}

describe('shapes: the fast pass of object and array nodes', () => {
  it('check a nullable object type', () => {
    verdicts(
      {
        type: ['object', 'null'],
        properties: { a: { type: 'string' } },
        required: ['a'],
        additionalProperties: false,
      },
      [
        [null, true],
        [{ a: 'x' }, true],
        [{ a: 1 }, false],
        [{}, false],
        [{ a: 'x', b: 1 }, false],
        [[], false],
        ['a', false],
      ],
    );
  });

  it('let values of other types through an object node without type', () => {
    verdicts({ properties: { a: { type: 'string' } }, required: ['a'] }, [
      ['text', true],
      [[1], true],
      [null, true],
      [{ a: 'x' }, true],
      [{}, false],
    ]);
  });

  it('count a key only required names as additional', () => {
    verdicts(
      { type: 'object', properties: { a: {} }, required: ['b'], additionalProperties: false },
      [
        [{ a: 1, b: 2 }, false],
        [{ a: 1 }, false],
      ],
    );
    verdicts({ type: 'object', properties: { a: {} }, required: ['b'] }, [
      [{ a: 1, b: 2 }, true],
      [{ b: undefined }, false],
    ]);
  });

  it('check additionalProperties schemas and keys whose value is undefined', () => {
    verdicts(
      {
        type: 'object',
        properties: { a: { type: 'integer' } },
        additionalProperties: { type: 'string' },
      },
      [
        [{ a: 1, b: 'x' }, true],
        [{ a: 1, b: 2 }, false],
        [{ a: 1.5 }, false],
        [{ a: undefined, b: undefined }, true],
      ],
    );
  });

  it('check arrays: item schemas, length bounds and a nullable type', () => {
    verdicts(
      {
        type: ['array', 'null'],
        items: { type: 'string', pattern: '^[a-z]+$' },
        minItems: 1,
        maxItems: 2,
      },
      [
        [null, true],
        [['ab'], true],
        [['ab', 'cd'], true],
        [[], false],
        [['ab', 'cd', 'ef'], false],
        [['AB'], false],
        [[1], false],
        ['ab', false],
      ],
    );
    verdicts({ items: { type: 'object', properties: { n: { type: 'number', minimum: 0 } } } }, [
      [{ not: 'an array' }, true],
      [[{ n: 1 }, { n: 0 }], true],
      [[{ n: -1 }], false],
      [[{ n: Number.NaN }], false],
    ]);
  });

  it('fall back to the closure where a leaf test is only sufficient', () => {
    verdicts({ type: 'object', properties: { s: { type: 'string', minLength: 2 } } }, [
      [{ s: '💩' }, false],
      [{ s: '💩💩' }, true],
      [{ s: 'ab' }, true],
    ]);
  });
});
