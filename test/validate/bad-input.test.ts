/** Whatever data a caller sends, validation returns a result: no crash, no hang, no prototype pollution. */
import { describe, expect, it } from 'vitest';
import { compile, parse, SchemaError, safeParse, v } from '../../src/validate/index.ts';

const tree = {
  $defs: {
    node: {
      type: 'object',
      properties: {
        next: { $ref: '#/$defs/node' },
        items: { type: 'array', items: { $ref: '#/$defs/node' } },
      },
    },
  },
  $ref: '#/$defs/node',
};

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { next: value };
  return value;
}

describe('bad data', () => {
  it('turns data 100k levels deep into a depth issue instead of a stack overflow', () => {
    const result = safeParse(tree, nested(100_000));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0].keyword).toBe('depth');
    expect(result.issues[0].message).toBe('value nests deeper than the maximum depth of 500');
  });

  it('accepts recursive data within maxDepth', () => {
    expect(safeParse(tree, nested(400)).success).toBe(true);
    expect(compile(tree, { maxDepth: 50 }).safeParse(nested(100)).success).toBe(false);
  });

  it('handles cyclic data', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.next = cyclic;
    cyclic.items = [cyclic];
    const result = safeParse(tree, cyclic);
    expect(result.success ? [] : result.issues.map((issue) => issue.keyword)).toEqual(['depth']);
    expect(safeParse({ type: 'object' }, cyclic).success).toBe(true);
  });

  it('reports a reference cycle that consumes no data instead of looping', () => {
    const result = safeParse(
      { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' },
      1,
    );
    expect(result.success ? [] : result.issues.map((issue) => issue.keyword)).toEqual(['depth']);
  });

  it('validates __proto__ and constructor keys as ordinary own keys, without polluting prototypes', () => {
    const schema = JSON.parse(`{
      "type": "object",
      "properties": {
        "__proto__": { "type": "object", "properties": { "polluted": { "default": true } } },
        "name": { "type": "string" }
      },
      "required": ["constructor"],
      "additionalProperties": { "type": "string" }
    }`);
    const data = JSON.parse('{"__proto__": {"x": 1}, "constructor": "ok", "name": "n"}');
    const value = parse(schema, data) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({
      x: 1,
      polluted: true,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('does not count inherited constructor or toString as present', () => {
    const result = safeParse({ type: 'object', required: ['constructor', 'toString'] }, {});
    expect(result.success ? [] : result.issues.map((issue) => issue.path)).toEqual([
      'constructor',
      'toString',
    ]);
  });

  it('inserts a default under the key __proto__ as an own property', () => {
    const value = parse(
      { type: 'object', properties: { ['__proto__']: { default: { admin: true } } } },
      {},
    ) as object;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('rejects values JSON cannot hold where a number is expected', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 10n]) {
      expect(safeParse({ type: 'number' }, value).success).toBe(false);
    }
  });

  it('lets an exception from a refinement through, and the validator still works afterwards', () => {
    let broken = true;
    const positive = (n: number) => {
      if (broken) throw new Error('refinement broke');
      return n > 0;
    };
    const validator = compile(
      v.object({ n: v.number().refine(positive, 'expected a positive number') }),
    );
    expect(() => validator.safeParse({ n: 1 })).toThrow('refinement broke');
    broken = false;
    expect(validator.safeParse({ n: 1 }).success).toBe(true);
    expect(validator.safeParse({ n: -1 }).success).toBe(false);
  });
});

describe('bad schemas', () => {
  it('fails to compile a schema nested 100k levels deep with a SchemaError, not a crash', () => {
    let schema: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) schema = { items: schema };
    expect(() => compile(schema)).toThrow(SchemaError);
  });

  it('compiles a schema object that contains itself, and bounds the recursion it causes', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    const validator = compile(schema);
    expect(validator.safeParse({ self: { self: {} } }).success).toBe(true);
    expect(validator.safeParse({ self: { self: 1 } }).success).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = validator.safeParse(cyclic);
    expect(result.success ? [] : result.issues.map((issue) => issue.keyword)).toEqual(['depth']);
  });
});
