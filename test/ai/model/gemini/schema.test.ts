import { describe, expect, it } from 'vitest';
import { toGeminiSchema } from '../../../../src/ai/model/index.ts';

describe('toGeminiSchema', () => {
  it('inlines references, folds null into nullable, and turns const into enum', () => {
    const { schema, warnings } = toGeminiSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        unit: { const: 'C' },
        note: { type: ['string', 'null'], maxLength: 40 },
        place: { $ref: '#/$defs/place', description: 'Where' },
        when: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
      },
      required: ['unit'],
      additionalProperties: false,
      $defs: { place: { type: 'object', properties: { city: { type: 'string' } } } },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['C'] },
        note: { type: 'string', nullable: true, maxLength: 40 },
        place: { type: 'object', properties: { city: { type: 'string' } }, description: 'Where' },
        when: { type: 'string', format: 'date-time', nullable: true },
      },
      required: ['unit'],
    });
    // Folding null into nullable loses nothing; dropping additionalProperties: false does.
    expect(warnings).toEqual([
      {
        path: '',
        keyword: 'additionalProperties',
        message: expect.stringMatching(/^additionalProperties: false is not supported: removed; /),
      },
    ]);
  });

  it('folds oneOf [X, null] into a nullable X without claiming it became anyOf', () => {
    const { schema, warnings } = toGeminiSchema({
      oneOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }],
    });
    expect(schema).toEqual({ type: 'integer', minimum: 0, nullable: true });
    expect(warnings).toEqual([]);
  });

  it('says oneOf became anyOf only when several branches remain, at the node that had it', () => {
    const { schema, warnings } = toGeminiSchema({
      oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }],
    });
    expect(schema).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }], nullable: true });
    expect(warnings).toEqual([
      { path: '', keyword: 'oneOf', message: 'oneOf became anyOf: exclusivity is not enforced' },
    ]);
  });

  it('keeps quiet about additionalProperties that allows anything, and warns on a branch of only null', () => {
    expect(
      toGeminiSchema({ type: 'object', additionalProperties: true }).warnings.concat(
        toGeminiSchema({ type: 'object', additionalProperties: {} }).warnings,
      ),
    ).toEqual([]);
    const { schema, warnings } = toGeminiSchema({ anyOf: [{ type: 'null' }] });
    expect(schema).toEqual({ nullable: true });
    expect(warnings).toEqual([
      {
        path: '',
        keyword: 'anyOf',
        message:
          'anyOf has no branch but null, which Gemini cannot express: only nullable was kept',
      },
    ]);
  });

  it('reports what it removes or rewrites', () => {
    const { schema, warnings } = toGeminiSchema({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        n: { type: 'integer', exclusiveMinimum: 0 },
        size: { enum: [1, 2, 3] },
        v: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        map: { type: 'object', additionalProperties: { type: 'string' } },
      },
    });
    expect(schema.properties).toEqual({
      id: { type: 'string' },
      n: { type: 'integer' },
      size: {},
      v: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      map: { type: 'object' },
    });
    expect(warnings.map((w) => `${w.path} ${w.keyword}`)).toEqual([
      '/properties/id format',
      '/properties/n exclusiveMinimum',
      '/properties/size enum',
      '/properties/v oneOf',
      '/properties/map additionalProperties',
    ]);
  });

  it('stops at recursive references with a warning instead of looping', () => {
    const { schema, warnings } = toGeminiSchema({
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
    });
    expect(schema.properties).toEqual({
      root: {
        type: 'object',
        properties: { children: { type: 'array', items: { type: 'object' } } },
      },
    });
    expect(warnings).toEqual([
      expect.objectContaining({
        path: '/properties/root/properties/children/items',
        keyword: '$ref',
      }),
    ]);
  });
});
