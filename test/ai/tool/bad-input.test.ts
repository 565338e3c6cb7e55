import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';

const add = tool({
  name: 'add',
  parameters: v.object({ a: v.number(), b: v.number() }),
  execute: ({ a, b }) => String(a + b),
});

const deep = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe('bad model arguments', () => {
  it.each([
    ['null', null],
    ['a string', '{"a":1,"b":2}'],
    ['an array', [1, 2]],
    ['NaN', { a: Number.NaN, b: 1 }],
    ['a bigint', { a: 1n, b: 2 }],
    ['a bare bigint', 10n],
    ['undefined', undefined],
    ['100k levels deep', { a: deep(100_000), b: 1 }],
    ['a 100k-deep array', { a: JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), b: 1 }],
  ])('%s yields an isError result', async (_label, args) => {
    const result = await add.invoke(args);
    expect(result.isError).toBe(true);
    expect(typeof result.content).toBe('string');
  });

  it('a tool without parameters survives a 100k-deep value', async () => {
    const echo = tool({ name: 'echo', execute: () => 'ok' });
    expect(await echo.invoke(deep(100_000))).toEqual({ content: 'ok' });
  });

  it('__proto__ keys never pollute a prototype', async () => {
    const loose = tool({
      name: 'loose',
      parameters: { type: 'object', additionalProperties: true },
      execute: (args) => JSON.stringify(args),
    });
    const args = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
    );
    await loose.invoke(args);
    const result = await add.invoke(
      JSON.parse('{"a": 1, "b": 2, "__proto__": {"polluted": true}}'),
    );
    expect(result.content).toBe('3');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('any JSON value as arguments gets an answer, never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (args) => {
        const result = await add.invoke(args);
        expect(typeof result.content).toBe('string');
      }),
      { numRuns: 200 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('10,000 concurrent invocations all answer', async () => {
    const invalid = (i: number) => i % 5 === 4;
    const slow = tool({
      name: 'slow',
      parameters: v.object({ i: v.number() }),
      execute: async ({ i }) => {
        await new Promise((resolve) => setImmediate(resolve));
        if (i % 3 === 0) throw new Error(`fail ${i}`);
        return `ok ${i}`;
      },
    });
    const results = await Promise.all(
      Array.from({ length: 10_000 }, (_, i) => slow.invoke(invalid(i) ? { i: 'x' } : { i })),
    );
    const summary = (r: { content: unknown; isError?: boolean }, i: number) =>
      `${r.isError ? 'error' : 'ok'}:${invalid(i) ? '' : r.content}`;
    const expected = (i: number) =>
      invalid(i) ? 'error:' : i % 3 === 0 ? `error:fail ${i}` : `ok:ok ${i}`;
    expect(results.map(summary)).toEqual(results.map((_, i) => expected(i)));
  });
});
