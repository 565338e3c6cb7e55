import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type CompiledValidator,
  compile,
  parse,
  SchemaError,
  safeParse,
  ValidationError,
  v,
} from '../../src/validate/index.ts';

const weather = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    unit: { enum: ['celsius', 'fahrenheit'], default: 'celsius' },
    days: { type: 'integer', minimum: 1, maximum: 7 },
  },
  required: ['city'],
  additionalProperties: false,
};

describe('compile on raw JSON Schema', () => {
  it('parses a valid value and throws ValidationError with every issue for an invalid one', () => {
    const validator = compile(weather);
    expect(validator.schema).toBe(weather);
    expect(validator.parse({ city: 'Lisbon', days: 2 })).toEqual({
      city: 'Lisbon',
      days: 2,
      unit: 'celsius',
    });
    let thrown: unknown;
    try {
      validator.parse({ city: '', days: 9, wind: true });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).issues.map((issue) => issue.path)).toEqual([
      'city',
      'days',
      'wind',
    ]);
  });

  it('safeParse never throws for bad data and returns the error with its issues', () => {
    const result = compile(weather).safeParse('Lisbon');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toBeInstanceOf(ValidationError);
    expect(result.error.issues).toEqual(result.issues);
    expect(result.issues).toEqual([
      {
        path: '',
        message: 'expected object, received string "Lisbon"',
        keyword: 'type',
        value: 'Lisbon',
      },
    ]);
  });

  it('safeParseAsync resolves to the same result as safeParse', async () => {
    const validator = compile(weather);
    expect(await validator.safeParseAsync({ city: 'Porto' })).toEqual(
      validator.safeParse({ city: 'Porto' }),
    );
    expect(await validator.safeParseAsync({})).toEqual(validator.safeParse({}));
  });

  it('accepts boolean schemas', () => {
    expect(compile(true).safeParse(42).success).toBe(true);
    expect(compile(false).safeParse(42).success).toBe(false);
  });

  it('rejects something that is not a schema with a TypeError', () => {
    expect(() => compile(42 as never)).toThrow(TypeError);
    expect(() => compile(null as never)).toThrow(/expected a schema/);
  });
});

describe('compile dispatch', () => {
  it('compiles a v builder with its static type and runs its refinements after the node passed', () => {
    const schema = v.object({
      n: v.integer().refine((n) => n % 2 === 0, 'expected an even number'),
    });
    const validator = compile(schema);
    expectTypeOf(validator).toEqualTypeOf<CompiledValidator<{ n: number }>>();
    expect(validator.parse({ n: 4 })).toEqual({ n: 4 });
    const odd = validator.safeParse({ n: 3 });
    expect(odd.success ? [] : odd.issues).toEqual([
      { path: 'n', message: 'expected an even number', keyword: 'refine', value: 3 },
    ]);
    const wrongType = validator.safeParse({ n: 'x' });
    expect(wrongType.success ? [] : wrongType.issues.map((issue) => issue.keyword)).toEqual([
      'type',
    ]);
  });

  it('validates a foreign Standard Schema with its own validate', () => {
    const validator = compile(z.object({ name: z.string() }));
    expectTypeOf(validator.parse).returns.toEqualTypeOf<{ name: string }>();
    expect(validator.safeParse({ name: 'a' })).toEqual({ success: true, value: { name: 'a' } });
    const result = validator.safeParse({ name: 1 });
    expect(result.success ? '' : result.issues[0].path).toBe('name');
  });
});

describe('defaults', () => {
  const schema = {
    type: 'object',
    properties: {
      options: {
        type: 'object',
        properties: { depth: { type: 'integer', default: 2 }, tags: { default: ['a'] } },
      },
      untouched: { type: 'object' },
      list: { type: 'array', items: { type: 'object', properties: { on: { default: true } } } },
    },
  };

  it('fills missing properties at every level, copying only the objects on the way', () => {
    const input = { options: {}, untouched: { deep: { x: 1 } }, list: [{ on: false }, {}] };
    const snapshot = structuredClone(input);
    const value = parse(schema, input) as typeof input & {
      options: { depth: number; tags: string[] };
    };
    expect(value).toEqual({
      options: { depth: 2, tags: ['a'] },
      untouched: { deep: { x: 1 } },
      list: [{ on: false }, { on: true }],
    });
    expect(input).toEqual(snapshot);
    expect(value).not.toBe(input);
    expect(value.options).not.toBe(input.options);
    expect(value.untouched).toBe(input.untouched);
    expect(value.list[0]).toBe(input.list[0]);
  });

  it('returns the input itself when no default applies', () => {
    const input = { options: { depth: 1, tags: [] }, list: [] };
    expect(parse(schema, input)).toBe(input);
  });

  it('gives each result its own copy of a default value', () => {
    const first = parse(schema, { options: {} }) as { options: { tags: string[] } };
    first.options.tags.push('mutated');
    const second = parse(schema, { options: {} }) as { options: { tags: string[] } };
    expect(second.options.tags).toEqual(['a']);
  });

  it('follows $ref and allOf to find defaults', () => {
    const viaRef = {
      $defs: { base: { properties: { mode: { default: 'fast' } } } },
      allOf: [{ $ref: '#/$defs/base' }],
    };
    expect(parse(viaRef, {})).toEqual({ mode: 'fast' });
  });
});

describe('dialects and references', () => {
  it('reads draft-07 by $schema, 2020-12 otherwise, or the draft option', () => {
    const tuple = { items: [{ type: 'string' }], additionalItems: false };
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', ...tuple };
    expect(compile(draft7).safeParse(['a', 'b']).success).toBe(false);
    expect(compile(tuple, { draft: 'draft-07' }).safeParse(['a', 'b']).success).toBe(false);
    const prefix = { prefixItems: [{ type: 'string' }], items: { type: 'number' } };
    expect(compile(prefix).safeParse(['a', 1]).success).toBe(true);
    expect(compile(prefix, { draft: 'draft-07' }).safeParse(['a', 1]).success).toBe(false);
  });

  it('resolves references to other documents through the registry, without network', () => {
    const registry = {
      'https://example.com/address.json': { type: 'object', required: ['street'] },
    };
    const validator = compile(
      { type: 'object', properties: { home: { $ref: 'https://example.com/address.json' } } },
      { registry },
    );
    expect(validator.safeParse({ home: { street: 'Rua Augusta' } }).success).toBe(true);
    const result = validator.safeParse({ home: {} });
    expect(result.success ? [] : result.issues.map((issue) => issue.path)).toEqual(['home.street']);
  });

  it('compiles recursive schemas and validates recursive data', () => {
    const tree = {
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
      $ref: '#/$defs/node',
    };
    const validator = compile(tree);
    expect(validator.safeParse({ children: [{ children: [] }, {}] }).success).toBe(true);
    const result = validator.safeParse({ children: [{ children: [1] }] });
    expect(result.success ? [] : result.issues.map((issue) => issue.path)).toEqual([
      'children[0].children[0]',
    ]);
  });
});

describe('invalid schemas fail at compile time, naming the schema path', () => {
  it.each([
    [
      { properties: { a: { minLength: 'x' } } },
      '#/properties/a/minLength: expected a non-negative integer, received string "x"',
    ],
    [{ type: 'text' }, '#/type: expected a JSON type name'],
    [{ $ref: '#/$defs/missing' }, '#/$ref: cannot resolve $ref "#/$defs/missing"'],
    [{ $ref: 'https://example.com/nowhere.json' }, 'register remote documents in options.registry'],
    [{ pattern: '(' }, '#/pattern: expected a regular expression'],
    [{ items: { properties: 3 } }, '#/items/properties: expected an object'],
    [{ anyOf: [] }, '#/anyOf: expected a non-empty array of schemas'],
    [{ not: 'string' }, '#/not: expected a schema (object or boolean)'],
    [{ multipleOf: 0 }, '#/multipleOf: expected a number greater than 0'],
  ])('%j', (schema, message) => {
    expect(() => compile(schema)).toThrow(SchemaError);
    expect(() => compile(schema)).toThrow(message);
  });

  it('rejects invalid options', () => {
    expect(() => compile({}, { maxDepth: 0 })).toThrow(/maxDepth/);
    expect(() => compile({}, { draft: '2019' as never })).toThrow(/draft/);
  });
});

describe('one-shot parse and safeParse', () => {
  it('validate with the options they are given, for the same schema object', () => {
    const schema = { type: 'string', format: 'email' };
    expect(safeParse(schema, 'nope').success).toBe(true);
    expect(safeParse(schema, 'nope', { formats: true }).success).toBe(false);
    expect(safeParse(schema, 'a@example.com', { formats: true }).success).toBe(true);
  });

  it('parse throws the ValidationError, with issues in its message', () => {
    expect(() => parse({ type: 'number' }, 'not-a-number')).toThrow(
      '<root>: expected number, received string "not-a-number"',
    );
  });
});
