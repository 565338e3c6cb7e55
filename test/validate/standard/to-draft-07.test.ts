import { describe, expect, it } from 'vitest';
import { v } from '../../../src/validate/index.ts';
import { toDraft07 } from '../../../src/validate/standard/to-draft-07.ts';

describe('toDraft07', () => {
  it('rewrites tuples, wherever they are nested', () => {
    const schema = v.object({
      pair: v.tuple([v.string(), v.number()]),
      list: v.array(v.union([v.tuple([v.boolean()]), v.null()])),
    });
    expect(toDraft07(schema.toJSON())).toEqual({
      type: 'object',
      properties: {
        pair: {
          type: 'array',
          items: [{ type: 'string' }, { type: 'number' }],
          additionalItems: false,
          minItems: 2,
        },
        list: {
          type: 'array',
          items: {
            anyOf: [
              { type: 'array', items: [{ type: 'boolean' }], additionalItems: false, minItems: 1 },
              { type: 'null' },
            ],
          },
        },
      },
      required: ['pair', 'list'],
    });
  });

  it('leaves values of const, enum and default alone', () => {
    const schema = { const: { prefixItems: [1] }, default: { prefixItems: [2] } };
    expect(toDraft07(schema)).toEqual(schema);
  });
});
