import { describe, expect, it } from 'vitest';
import { buildSchema, compile, isBuilder, safeParse, v } from '../../src/validate/index.ts';

describe('v builders serialize to JSON Schema draft 2020-12', () => {
  it('emits each primitive builder', () => {
    expect(v.any().toJSON()).toEqual({});
    expect(v.string().toJSON()).toEqual({ type: 'string' });
    expect(v.number().toJSON()).toEqual({ type: 'number' });
    expect(v.integer().toJSON()).toEqual({ type: 'integer' });
    expect(v.boolean().toJSON()).toEqual({ type: 'boolean' });
    expect(v.null().toJSON()).toEqual({ type: 'null' });
  });

  it('emits literals with their JSON type and const', () => {
    expect(v.literal('a').toJSON()).toEqual({ type: 'string', const: 'a' });
    expect(v.literal(3).toJSON()).toEqual({ type: 'number', const: 3 });
    expect(v.literal(false).toJSON()).toEqual({ type: 'boolean', const: false });
    expect(v.literal(null).toJSON()).toEqual({ type: 'null', const: null });
  });

  it('emits enums with a type only when all values share one', () => {
    expect(v.enum(['asc', 'desc']).toJSON()).toEqual({ type: 'string', enum: ['asc', 'desc'] });
    expect(v.enum(['a', 1]).toJSON()).toEqual({ enum: ['a', 1] });
  });

  it('emits arrays, tuples, records, unions and intersections', () => {
    expect(v.array(v.string()).toJSON()).toEqual({ type: 'array', items: { type: 'string' } });
    expect(v.tuple([v.string(), v.number()]).toJSON()).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }],
      items: false,
      minItems: 2,
    });
    expect(v.record(v.number()).toJSON()).toEqual({
      type: 'object',
      additionalProperties: { type: 'number' },
    });
    expect(v.record(v.string().min(2), v.boolean()).toJSON()).toEqual({
      type: 'object',
      propertyNames: { type: 'string', minLength: 2 },
      additionalProperties: { type: 'boolean' },
    });
    expect(v.union([v.string(), v.null()]).toJSON()).toEqual({
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
    expect(
      v.intersection([v.object({ a: v.string() }), v.object({ b: v.number() })]).toJSON(),
    ).toEqual({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
      ],
    });
  });

  it('leaves optional and defaulted properties out of required', () => {
    const schema = v.object({
      a: v.string(),
      b: v.number().optional(),
      c: v.boolean().default(true),
      d: v.string().nullable(),
    });
    expect(schema.toJSON()).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'number' },
        c: { type: 'boolean', default: true },
        d: { type: ['string', 'null'] },
      },
      required: ['a', 'd'],
    });
    expect(v.object({ a: v.string().optional() }).toJSON()).not.toHaveProperty('required');
  });

  it('emits strict() and additionalProperties()', () => {
    expect(v.object({}).strict().toJSON()).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
    expect(v.object({}).additionalProperties(v.string()).toJSON().additionalProperties).toEqual({
      type: 'string',
    });
    expect(v.object({}).strict().additionalProperties(true).toJSON().additionalProperties).toBe(
      true,
    );
  });

  it('emits string, number and array constraints', () => {
    expect(v.string().min(1).max(5).pattern(/^a/).format('email').toJSON()).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 5,
      pattern: '^a',
      format: 'email',
    });
    expect(v.string().length(2).toJSON()).toEqual({ type: 'string', minLength: 2, maxLength: 2 });
    expect(v.number().min(-1.5).max(2).toJSON()).toEqual({
      type: 'number',
      minimum: -1.5,
      maximum: 2,
    });
    expect(v.array(v.any()).min(1).max(3).toJSON()).toEqual({
      type: 'array',
      items: {},
      minItems: 1,
      maxItems: 3,
    });
    expect(v.array(v.any()).length(2).toJSON()).toMatchObject({ minItems: 2, maxItems: 2 });
  });

  it('emits annotations after the type keywords', () => {
    const schema = v.string().title('Path').describe('Workspace-relative path').examples('a.txt');
    expect(JSON.stringify(schema)).toBe(
      '{"type":"string","title":"Path","description":"Workspace-relative path","examples":["a.txt"]}',
    );
  });

  it('makes nullable nodes accept null in the shape providers accept', () => {
    expect(v.integer().nullable().toJSON()).toEqual({ type: ['integer', 'null'] });
    expect(v.enum(['a', 'b']).nullable().toJSON()).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
    expect(v.literal('a').nullable().describe('x').toJSON()).toEqual({
      anyOf: [{ type: 'string', const: 'a' }, { type: 'null' }],
      description: 'x',
    });
    expect(v.union([v.string(), v.number()]).nullable().toJSON()).toEqual({
      anyOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'null' }],
    });
    expect(v.any().nullable().toJSON()).toEqual({});
    expect(v.null().nullable().toJSON()).toEqual({ type: 'null' });
  });

  it('emits a discriminated union as oneOf with a discriminator', () => {
    const shape = v.discriminatedUnion('kind', [
      v.object({ kind: v.literal('circle'), radius: v.number() }),
      v.object({ kind: v.literal('square'), side: v.number() }),
    ]);
    expect(shape.toJSON()).toEqual({
      type: 'object',
      oneOf: [
        {
          type: 'object',
          properties: { kind: { type: 'string', const: 'circle' }, radius: { type: 'number' } },
          required: ['kind', 'radius'],
        },
        {
          type: 'object',
          properties: { kind: { type: 'string', const: 'square' }, side: { type: 'number' } },
          required: ['kind', 'side'],
        },
      ],
      discriminator: { propertyName: 'kind' },
    });
  });

  it('keeps keys such as __proto__ as own properties', () => {
    const built = v.object({ ['__proto__']: v.string() });
    const properties = built.toJSON().properties as object;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(properties)).toEqual(['__proto__']);
    expect(JSON.stringify(built)).toContain('"__proto__":{"type":"string"}');
    expect(built.toJSON().required).toEqual(['__proto__']);
  });
});

describe('builders are immutable', () => {
  it('returns a new builder from every chain call and leaves the original unchanged', () => {
    const base = v.string();
    const described = base.describe('x');
    const min = described.min(1);
    expect(described).not.toBe(base);
    expect(base.toJSON()).toEqual({ type: 'string' });
    expect(described.toJSON()).toEqual({ type: 'string', description: 'x' });
    expect(min.toJSON()).toEqual({ type: 'string', minLength: 1, description: 'x' });
    const object = v.object({ a: v.string() });
    object.strict();
    expect(object.toJSON()).not.toHaveProperty('additionalProperties');
  });

  it('copies arrays and defaults it was given', () => {
    const values = ['a', 'b'] as const;
    const mutable = values as unknown as string[];
    const choice = v.enum(values);
    const fallback = { tags: ['x'] };
    const withDefault = v.object({ tags: v.array(v.string()) }).default(fallback);
    mutable.push('c');
    fallback.tags.push('y');
    expect(choice.toJSON().enum).toEqual(['a', 'b']);
    expect(withDefault.toJSON().default).toEqual({ tags: ['x'] });
  });

  it('emits a fresh schema object each time', () => {
    const schema = v.object({ a: v.string() });
    const first = schema.toJSON();
    (first.properties as Record<string, unknown>).a = { type: 'number' };
    expect(schema.toJSON().properties).toEqual({ a: { type: 'string' } });
    const list = v.array(v.number()).default([1]).examples([2]);
    (list.toJSON().default as number[]).push(3);
    (list.toJSON().examples as number[][])[0].push(4);
    expect(list.toJSON()).toMatchObject({ default: [1], examples: [[2]] });
  });
});

describe('bad builder arguments fail with a clear error', () => {
  it.each([
    [() => v.string().min(-1), 'min: expected a non-negative integer, received number -1'],
    [() => v.string().max(1.5), 'max: expected a non-negative integer, received number 1.5'],
    [() => v.number().min(Number.NaN), 'min: expected a finite number, received number NaN'],
    [() => v.string().pattern(/a/i), 'remove "i"'],
    [() => v.string().pattern('('), 'pattern:'],
    [() => v.string().pattern(/(\w)\1/), 'pattern: "(\\\\w)\\\\1" uses the backreference `\\1`'],
    [() => v.string().pattern('a(?=b)'), 'pattern: "a(?=b)" uses lookahead'],
    [() => v.literal(undefined as never), 'literal: expected a string, finite number'],
    [() => v.enum([] as never), 'enum: expected a non-empty array'],
    [
      () => v.array('x' as never),
      'array: expected a v builder (such as v.string()), received string',
    ],
    [() => v.object({ a: {} as never }), 'object property "a": expected a v builder'],
    [() => v.union([] as never), 'union: expected a non-empty array of v builders'],
    [() => v.string().default(undefined as never), 'default: expected a JSON value'],
    [() => v.any().default(() => 1), 'default: expected a JSON value, received function'],
    [() => v.string().refine('x' as never), 'refine: expected a function'],
    [() => v.string().describe(1 as never), 'describe: expected a string, received number'],
  ])('%#', (build, message) => {
    expect(build).toThrow(message);
  });

  it('rejects discriminated union branches without a literal tag or with duplicate tags', () => {
    expect(() => v.discriminatedUnion('kind', [v.object({ kind: v.string() }) as never])).toThrow(
      'discriminatedUnion[0]: expected an object whose required property "kind" is a v.literal(…)',
    );
    expect(() =>
      v.discriminatedUnion('kind', [v.object({ kind: v.literal('a').optional() }) as never]),
    ).toThrow('discriminatedUnion[0]');
    expect(() =>
      v.discriminatedUnion('kind', [
        v.object({ kind: v.literal('a') }),
        v.object({ kind: v.literal('a'), x: v.number() }),
      ]),
    ).toThrow('branches 0 and 1 both have "kind" = "a"');
  });
});

describe('isBuilder and buildSchema', () => {
  it('recognizes builders by the fino.schema brand', () => {
    expect(isBuilder(v.string())).toBe(true);
    expect(isBuilder({ type: 'string' })).toBe(false);
    expect(isBuilder(null)).toBe(false);
    expect(typeof (v.string() as any)[Symbol.for('fino.schema')]).toBe('function');
  });

  it('keys refinements by the very nodes of the emitted schema', () => {
    const even = (n: number) => n % 2 === 0;
    const { schema, refinements } = buildSchema(
      v.object({ n: v.integer().refine(even, 'odd'), s: v.string() }).refine(() => true),
    );
    const properties = schema.properties as Record<string, object>;
    expect(refinements.get(properties.n)?.map((check) => check(3))).toEqual(['odd']);
    expect(refinements.get(properties.n)?.map((check) => check(4))).toEqual([undefined]);
    expect(refinements.has(schema)).toBe(true);
    expect(refinements.has(properties.s)).toBe(false);
    expect(() => buildSchema({} as never)).toThrow('buildSchema: expected a v builder');
  });
});

describe('builders validate through compile', () => {
  it('parses a tool argument object and applies defaults without mutating the input', () => {
    const args = v.object({
      city: v.string(),
      unit: v.enum(['c', 'f']).default('c'),
      days: v.integer().min(1).optional(),
    });
    const input = { city: 'Lisbon' };
    expect(compile(args).parse(input)).toEqual({ city: 'Lisbon', unit: 'c' });
    expect(input).toEqual({ city: 'Lisbon' });
    const result = safeParse(args, { city: 1, unit: 'k', days: 0 });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.issues.map((issue) => issue.path).sort()).toEqual(['city', 'days', 'unit']);
    }
  });

  it.each([
    ['string', v.string(), 'x', 1],
    ['number', v.number(), 1.5, '1'],
    ['integer', v.integer(), 2, 2.5],
    ['boolean', v.boolean(), false, 0],
    ['null', v.null(), null, 0],
    ['literal', v.literal('a'), 'a', 'b'],
    ['enum', v.enum(['a', 'b']), 'b', 'c'],
    ['array', v.array(v.number()).max(2), [1, 2], [1, 2, 3]],
    ['tuple', v.tuple([v.string(), v.number()]), ['a', 1], ['a', 1, 2]],
    ['record', v.record(v.number()), { a: 1 }, { a: 'x' }],
    ['union', v.union([v.string(), v.number()]), 1, true],
    [
      'intersection',
      v.intersection([v.object({ a: v.any() }), v.object({ b: v.any() })]),
      { a: 1, b: 2 },
      { a: 1 },
    ],
    ['strict object', v.object({ a: v.string() }).strict(), { a: 'x' }, { a: 'x', b: 1 }],
    ['string length', v.string().length(2), 'ab', 'abc'],
    ['string min', v.string().min(2), 'ab', 'a'],
    ['string max', v.string().max(1), 'a', 'ab'],
    ['number min', v.number().min(1.5), 1.5, 1.4],
    ['number max', v.number().max(0), -1, 0.1],
    ['array min', v.array(v.any()).min(1), [null], []],
    ['array length', v.array(v.any()).length(1), [1], [1, 2]],
    ['additional properties', v.object({}).additionalProperties(v.number()), { a: 1 }, { a: 'x' }],
    ['record keys', v.record(v.string().pattern('^[a-z]+$'), v.any()), { ab: 1 }, { AB: 1 }],
    ['pattern', v.string().pattern('^[a-z]+$'), 'abc', 'ABC'],
    ['nullable', v.string().nullable(), null, 1],
    ['nullable enum', v.enum(['a']).nullable(), null, 'b'],
    ['nullable literal', v.literal(1).nullable(), null, 2],
  ])('%s accepts a valid value and rejects an invalid one', (_name, builder, valid, invalid) => {
    const validator = compile(builder);
    expect(validator.safeParse(valid)).toEqual({ success: true, value: valid });
    expect(validator.safeParse(invalid).success).toBe(false);
  });

  it('runs refinements after the keywords passed, never on null', () => {
    const calls: unknown[] = [];
    const even = v
      .integer()
      .refine((n) => {
        calls.push(n);
        return n % 2 === 0;
      }, 'expected an even number')
      .nullable();
    const validator = compile(even);
    expect(validator.safeParse(4).success).toBe(true);
    expect(validator.safeParse(null).success).toBe(true);
    const failed = validator.safeParse(3);
    expect(failed.success).toBe(false);
    if (!failed.success) {
      expect(failed.issues).toEqual([
        expect.objectContaining({
          path: '',
          keyword: 'refine',
          message: 'expected an even number',
        }),
      ]);
    }
    expect(validator.safeParse('x').success).toBe(false);
    expect(new Set(calls)).toEqual(new Set([4, 3]));
  });

  it('picks the discriminated union branch by its tag', () => {
    const shape = v.discriminatedUnion('kind', [
      v.object({ kind: v.literal('circle'), radius: v.number() }),
      v.object({ kind: v.literal('square'), side: v.number() }),
    ]);
    const validator = compile(shape);
    expect(validator.parse({ kind: 'square', side: 2 })).toEqual({ kind: 'square', side: 2 });
    const wrong = validator.safeParse({ kind: 'square', radius: 2 });
    expect(wrong.success).toBe(false);
    if (!wrong.success) expect(wrong.issues.map((issue) => issue.message).join()).toContain('side');
    const unknown = validator.safeParse({ kind: 'hexagon' });
    expect(unknown.success).toBe(false);
    if (!unknown.success) {
      expect(unknown.issues).toHaveLength(1);
      expect(unknown.issues[0].message).toContain('circle');
      expect(unknown.issues[0].message).toContain('square');
    }
  });

  it('asserts formats only when asked', () => {
    const email = v.string().format('email');
    expect(compile(email).safeParse('nope').success).toBe(true);
    expect(compile(email, { formats: true }).safeParse('nope').success).toBe(false);
  });
});
