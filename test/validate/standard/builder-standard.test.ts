import { asSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { v } from '../../../src/validate/index.ts';

describe("builders' ~standard", () => {
  const args = v.object({
    city: v.string(),
    unit: v.enum(['c', 'f']).default('c'),
    stops: v.array(v.object({ 'stop name': v.string() })).optional(),
  });

  it('declares Standard Schema v1 by fino', () => {
    const props = args['~standard'];
    expect(props.version).toBe(1);
    expect(props.vendor).toBe('fino');
    expect(args['~standard']).toBe(props);
  });

  it('validates synchronously, returning the parsed value with defaults', () => {
    expect(args['~standard'].validate({ city: 'Lisbon' })).toEqual({
      value: { city: 'Lisbon', unit: 'c' },
    });
  });

  it('reports issues with Standard Schema paths', () => {
    const result = args['~standard'].validate({ city: 1, stops: [{ 'stop name': 2 }] });
    expect(result).not.toBeInstanceOf(Promise);
    const { issues } = result as { issues: { path: unknown[]; message: string }[] };
    expect(issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining([['city'], ['stops', 0, 'stop name']]),
    );
    expect(issues.find((issue) => issue.path[0] === 'city')?.message).toBe(
      'expected string, received number 1',
    );
  });

  it('renders JSON Schema for draft 2020-12 and draft-07 targets', () => {
    const pair = v.tuple([v.string(), v.number()]);
    expect(pair['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      ...pair.toJSON(),
    });
    expect(pair['~standard'].jsonSchema.output({ target: 'draft-07' })).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'number' }],
      additionalItems: false,
      minItems: 2,
    });
    expect(() => pair['~standard'].jsonSchema.input({ target: 'openapi-3.0' })).toThrow(
      'fino builders render JSON Schema for "draft-2020-12" and "draft-07", not "openapi-3.0"',
    );
  });

  it('works as a schema in the Vercel AI SDK, which accepts Standard Schema', async () => {
    const schema = asSchema(args);
    expect(await schema.jsonSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
    expect(await schema.validate!({ city: 'Porto' })).toEqual({
      success: true,
      value: { city: 'Porto', unit: 'c' },
    });
    expect(await schema.validate!({ city: 3 })).toMatchObject({ success: false });
  });
});
