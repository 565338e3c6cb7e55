import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { fromOpenAIStrictArgs, toOpenAIStrictSchema } from '../../../../src/ai/model/index.ts';

const order = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    note: { type: 'string', minLength: 1 },
    status: { enum: ['open', 'closed'] },
    priority: { type: 'string', enum: ['low', 'high'] },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    address: {
      type: 'object',
      properties: { street: { type: 'string' }, zip: { type: 'string' } },
      required: ['street'],
      additionalProperties: true,
    },
    parent: { $ref: '#/$defs/ref' },
    comment: { type: ['string', 'null'] },
  },
  required: ['id'],
  $defs: { ref: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
};

describe('toOpenAIStrictSchema', () => {
  const { schema, warnings } = toOpenAIStrictSchema(order);

  it('makes every property required, optional ones nullable, and closes every object', () => {
    expect(schema.required).toEqual([
      'id',
      'note',
      'status',
      'priority',
      'tags',
      'address',
      'parent',
      'comment',
    ]);
    expect(schema.additionalProperties).toBe(false);
    const properties = schema.properties as Record<string, any>;
    expect(properties.note).toEqual({ type: ['string', 'null'] });
    expect(properties.status).toEqual({ anyOf: [{ enum: ['open', 'closed'] }, { type: 'null' }] });
    expect(properties.priority).toEqual({ type: ['string', 'null'], enum: ['low', 'high', null] });
    expect(properties.tags).toEqual({ type: ['array', 'null'], items: { type: 'string' } });
    expect(properties.address).toEqual({
      type: ['object', 'null'],
      properties: { street: { type: 'string' }, zip: { type: ['string', 'null'] } },
      required: ['street', 'zip'],
      additionalProperties: false,
    });
    expect(properties.parent).toEqual({ anyOf: [{ $ref: '#/$defs/ref' }, { type: 'null' }] });
    expect(properties.comment).toEqual({ type: ['string', 'null'] });
    expect((schema.$defs as any).ref.additionalProperties).toBe(false);
  });

  it('names every change and loss as a warning with its path', () => {
    expect(warnings.map((w) => `${w.path} ${w.keyword}`)).toEqual([
      '/properties/note minLength',
      '/properties/tags uniqueItems',
      '/properties/address additionalProperties',
      '/properties/address/properties/zip required',
      '/properties/note required',
      '/properties/status required',
      '/properties/priority required',
      '/properties/tags required',
      '/properties/address required',
      '/properties/parent required',
    ]);
    expect(warnings[0].message).toBe('minLength is not supported in strict mode: removed');
  });

  it('turns oneOf into anyOf, with a warning, and leaves the input untouched', () => {
    const input = {
      type: 'object',
      properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
      required: ['v'],
    };
    const copy = structuredClone(input);
    const result = toOpenAIStrictSchema(input);
    expect((result.schema.properties as any).v).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }],
    });
    expect(result.warnings).toEqual([
      expect.objectContaining({ path: '/properties/v', keyword: 'oneOf' }),
    ]);
    expect(input).toEqual(copy);
  });

  it('warns that a free-form object can only be empty', () => {
    const result = toOpenAIStrictSchema({
      type: 'object',
      properties: { meta: { type: 'object' } },
      required: ['meta'],
    });
    expect((result.schema.properties as any).meta).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(result.warnings[0]).toMatchObject({ path: '/properties/meta', keyword: 'properties' });
  });
});

describe('fromOpenAIStrictArgs', () => {
  it('removes the nulls the rewrite introduced, at every depth, so the original schema accepts them', () => {
    const args = {
      id: 'a1',
      note: null,
      status: null,
      priority: 'low',
      tags: null,
      address: { street: 'Main', zip: null },
      parent: { id: 'p' },
      comment: null,
    };
    const restored = fromOpenAIStrictArgs(args, order);
    expect(restored).toEqual({
      id: 'a1',
      priority: 'low',
      address: { street: 'Main' },
      parent: { id: 'p' },
      comment: null,
    });
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    expect(ajv.validate(order, restored)).toBe(true);
    expect(ajv.validate(order, args)).toBe(false);
    expect(args.note).toBeNull();
  });

  it('keeps nulls for required properties, so validation still reports them', () => {
    expect(fromOpenAIStrictArgs({ id: null }, order)).toEqual({ id: null });
  });

  it('recurses into arrays and $ref targets', () => {
    const schema = {
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: '#/$defs/item' } } },
      required: ['items'],
      $defs: { item: { type: 'object', properties: { n: { type: 'integer' } } } },
    };
    expect(fromOpenAIStrictArgs({ items: [{ n: null }, { n: 2 }] }, schema)).toEqual({
      items: [{}, { n: 2 }],
    });
  });

  it('leaves non-object values and unknown keys alone, and never pollutes a prototype', () => {
    expect(fromOpenAIStrictArgs('raw', order)).toBe('raw');
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "id": "x", "extra": null}');
    const restored = fromOpenAIStrictArgs(hostile, order) as Record<string, unknown>;
    expect(restored.extra).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(restored)).toBe(Object.prototype);
  });
});
