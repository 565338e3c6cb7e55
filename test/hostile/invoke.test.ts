/**
 * Hostile input to `Task.invoke()`, the tool_result contract: arguments built to amplify
 * the error result, thrown values that cannot be read, results that are not results.
 * Whatever comes in, `invoke()` resolves to a small, well-formed result.
 */
import { describe, expect, it } from 'vitest';
import { tool } from '../../src/ai/tool/index.ts';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '../../src/validate/index.ts';
import { v } from '../../src/validate/index.ts';

/** The documented ceiling of an error text that `invoke()` writes itself (docs/tool.md). */
const ERROR_TEXT_MAX_CHARS = 8192;

const throwing = (value: unknown) =>
  tool({
    name: 'boom',
    execute: () => {
      throw value;
    },
  });

const returning = (value: unknown) => tool({ name: 'bad', execute: () => value as string });

describe('huge arguments keep the error result small', () => {
  const numbers = tool({
    name: 'numbers',
    parameters: v.object({ items: v.array(v.number()), label: v.number() }),
    execute: () => 'ok',
  });
  // About 3.8 MB of JSON: 100,000 wrong-typed items and one 800 KB string.
  const args = {
    items: Array.from({ length: 100_000 }, (_, i) => `item number ${i} is not a number`),
    label: 'x'.repeat(800_000),
  };

  it('a 3.8 MB argument with 100,001 issues yields at most 8 KB', async () => {
    expect(JSON.stringify(args).length).toBeGreaterThan(3_800_000);
    const result = await numbers.invoke(args);
    expect(result.isError).toBe(true);
    const content = result.content as string;
    expect(content.length).toBeLessThanOrEqual(ERROR_TEXT_MAX_CHARS);
    const lines = content.split('\n');
    expect(lines[0]).toBe('Invalid arguments for "numbers":');
    expect(lines[1]).toBe(
      'items[0]: expected number, received string "item number 0 is not a number"',
    );
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines.at(-1)).toBe('… and 99981 more issues');
  });

  it('the received huge string is excerpted, not echoed', async () => {
    const result = await numbers.invoke({ items: [], label: 'y'.repeat(3_800_000) });
    const content = result.content as string;
    expect(content.length).toBeLessThan(400);
    expect(content).toMatch(
      /^Invalid arguments for "numbers":\nlabel: expected number, received string "y+…$/,
    );
  });

  it('a 1 MB property name is cut in the issue line', async () => {
    const strict = tool({
      name: 'strict',
      parameters: { type: 'object', additionalProperties: { type: 'number' } },
      execute: () => 'ok',
    });
    const result = await strict.invoke({ ['k'.repeat(1_000_000)]: 'not a number' });
    const content = result.content as string;
    expect(content.length).toBeLessThanOrEqual(ERROR_TEXT_MAX_CHARS);
    expect(content.split('\n')[1]).toHaveLength(300);
    expect(content.split('\n')[1]).toMatch(/^kkk+…$/);
  });

  it('a validator that throws a huge message is capped', async () => {
    const schema = {
      '~standard': {
        version: 1,
        vendor: 'hostile',
        validate: () => {
          throw new Error('z'.repeat(5_000_000));
        },
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    } satisfies StandardSchemaV1<unknown, unknown> & StandardJSONSchemaV1<unknown, unknown>;
    const result = await tool({
      name: 'v',
      parameters: schema as never,
      execute: () => 'ok',
    }).invoke({});
    const content = result.content as string;
    expect(result.isError).toBe(true);
    expect(content.length).toBeLessThanOrEqual(ERROR_TEXT_MAX_CHARS);
    expect(content).toMatch(
      /^Invalid arguments for "v": z+\n… \(truncated: 5000027 characters in all\)$/,
    );
  });

  it('an executor error with a huge message is capped, without splitting a surrogate pair', async () => {
    const result = await throwing(new Error('😀'.repeat(1_000_000))).invoke({});
    const content = result.content as string;
    expect(content.length).toBeLessThanOrEqual(ERROR_TEXT_MAX_CHARS);
    expect(content).toMatch(/^(😀)+\n… \(truncated: 2000000 characters in all\)$/u);
  });

  it("a tool's own isError content is its output and is not cut", async () => {
    const big = 'e'.repeat(100_000);
    expect(await returning({ content: big, isError: true }).invoke({})).toEqual({
      content: big,
      isError: true,
    });
  });
});

describe('hostile thrown values become isError results', () => {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const revokedFunction = Proxy.revocable(() => {}, {});
  revokedFunction.revoke();
  const trap = () => {
    throw new Error('trap');
  };
  const cases: [string, unknown, string][] = [
    [
      'an object whose message getter throws',
      Object.defineProperty({}, 'message', { get: trap }),
      'an object that cannot be described was thrown',
    ],
    [
      'an Error whose message and name getters throw',
      Object.defineProperties(new Error('x'), { message: { get: trap }, name: { get: trap } }),
      'an object that cannot be described was thrown',
    ],
    [
      'a Proxy whose every trap throws',
      new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap }),
      'an object that cannot be described was thrown',
    ],
    ['a revoked Proxy', revoked.proxy, 'an object that cannot be described was thrown'],
    ['a revoked function Proxy', revokedFunction.proxy, 'a function was thrown'],
    [
      'an object whose toJSON throws',
      { toJSON: trap, toString: trap },
      'an object that cannot be described was thrown',
    ],
    ['an object without a prototype', Object.create(null), '{}'],
    [
      'a cyclic object',
      (() => {
        const o: Record<string, unknown> = {};
        o.self = o;
        return o;
      })(),
      'an object that cannot be described was thrown',
    ],
    ['null', null, 'null was thrown'],
    ['undefined', undefined, 'undefined was thrown'],
    ['a symbol', Symbol('oops'), 'Symbol(oops) was thrown'],
    ['a bigint', 10n, 'a bigint was thrown'],
    ['an empty string', '', 'an empty string was thrown'],
    ['a function', () => 'secret source', 'a function was thrown'],
    ['a number', 42, '42'],
  ];

  it.each(cases)('%s', async (_label, value, message) => {
    expect(await throwing(value).invoke({})).toEqual({ content: message, isError: true });
  });

  it('a rejected promise with a hostile reason', async () => {
    const rejecting = tool({ name: 'r', execute: () => Promise.reject(revoked.proxy) });
    expect(await rejecting.invoke({})).toEqual({
      content: 'an object that cannot be described was thrown',
      isError: true,
    });
  });

  it('a hostile value with a deadline too', async () => {
    const timed = tool({
      name: 't',
      timeoutMs: 60_000,
      execute: () => {
        throw revoked.proxy;
      },
    });
    expect(await timed.invoke({})).toEqual({
      content: 'an object that cannot be described was thrown',
      isError: true,
    });
  });

  it('a value named AbortError or SuspendSignal still propagates, a Proxy included', async () => {
    await expect(throwing({ name: 'AbortError' }).invoke({})).rejects.toEqual({
      name: 'AbortError',
    });
    const proxyNamed = new Proxy(
      {},
      { get: (_t, key) => (key === 'name' ? 'SuspendSignal' : undefined) },
    );
    await expect(throwing(proxyNamed).invoke({})).rejects.toBe(proxyNamed);
  });
});

describe('malformed executor results become an invalid-result error', () => {
  const cyclic: Record<string, unknown> = { type: 'text', text: 'a' };
  cyclic.self = cyclic;
  const cyclicArray: unknown[] = [];
  cyclicArray.push(cyclicArray);
  const trap = () => {
    throw new Error('trap');
  };
  const cases: [string, unknown, string][] = [
    [
      'content: 42',
      { content: 42 },
      'content: expected a string, a content part or an array of content parts, received number 42',
    ],
    [
      'content: null',
      { content: null },
      'content: expected a string, a content part or an array of content parts, received null',
    ],
    [
      'a part of unknown type',
      { content: [{ type: 'video', url: 'x' }] },
      'content[0].type: expected "text", "image", "audio", "document" or "resource", received string "video"',
    ],
    [
      'a part without a type',
      { content: [{ text: 'hi' }] },
      'content[0].type: expected "text", "image", "audio", "document" or "resource", received undefined',
    ],
    [
      'a text part without text',
      { content: [{ type: 'text' }] },
      'content[0].text: expected a string, received undefined',
    ],
    [
      'an image with numeric data',
      { content: [{ type: 'image', mediaType: 'image/png', data: 7 }] },
      'content[0].data: expected a string, received number 7',
    ],
    [
      'a BigInt in a part',
      { content: { type: 'text', text: 1n } },
      'content.text: expected a string, received bigint 1n',
    ],
    [
      'a string in a parts array',
      { content: ['hello'] },
      'content[0]: expected a content part object, received string "hello"',
    ],
    [
      'a hole in a parts array',
      { content: [{ type: 'text', text: 'a' }, ...new Array(1), { type: 'text', text: 'b' }] },
      'content[1]: expected a content part object, received undefined',
    ],
    [
      'a cyclic parts array',
      { content: cyclicArray },
      'content[0]: expected a content part object, received array',
    ],
    [
      'a tool_use part',
      { content: [{ type: 'tool_use', id: '1', name: 'x', args: {} }] },
      'content[0].type: expected "text", "image", "audio", "document" or "resource", received string "tool_use"',
    ],
    [
      'a resource with a numeric text',
      { content: [{ type: 'resource', uri: 'file:///a', text: 3 }] },
      'content[0].text: expected a string or nothing, received number 3',
    ],
    [
      'isError that is not a boolean',
      { content: 'x', isError: 'yes' },
      'isError: expected a boolean, received string "yes"',
    ],
    [
      'a content getter that throws',
      Object.defineProperty({}, 'content', { get: trap, enumerable: true }),
      'reading it threw: trap',
    ],
    ['a bigint', 5n, 'it cannot be serialized as JSON: Do not know how to serialize a BigInt'],
    [
      'a function',
      () => 'x',
      'expected a string, a { content } object or a JSON value, received function',
    ],
    [
      'a symbol',
      Symbol('s'),
      'expected a string, a { content } object or a JSON value, received symbol Symbol(s)',
    ],
  ];

  it.each(cases)('%s', async (_label, value, reason) => {
    expect(await returning(value).invoke({})).toEqual({
      content: `Tool "bad" returned an invalid result (${reason}). This is a fault in the tool, not in the arguments: calling it again with different arguments will not help.`,
      isError: true,
    });
  });

  it('a cyclic plain value', async () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    const result = await returning(o).invoke({});
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^Tool "bad" returned an invalid result \(it cannot be serialized as JSON: Converting circular structure/,
    );
  });

  it('a returned object whose then getter throws', async () => {
    const thenable = Object.defineProperty({}, 'then', { get: trap, enumerable: true });
    expect(await returning(thenable).invoke({})).toEqual({
      content: expect.stringMatching(
        /^Tool "bad" returned an invalid result \(it cannot be serialized as JSON: trap\)/,
      ),
      isError: true,
    });
  });

  it('a revoked Proxy as the result', async () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const result = await returning(revoked.proxy).invoke({});
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Tool "bad" returned an invalid result \(reading it threw: /);
  });

  it('a cycle in an unknown field of a part is dropped, not passed on', async () => {
    const result = await returning({ content: [cyclic] }).invoke({});
    expect(result).toStrictEqual({ content: [{ type: 'text', text: 'a' }] });
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('throwOnError rethrows an invalid result as an InvalidResultError', async () => {
    const strict = tool({
      name: 's',
      throwOnError: true,
      execute: () => ({ content: 42 }) as never,
    });
    await expect(strict.invoke({})).rejects.toMatchObject({
      name: 'InvalidResultError',
      taskName: 's',
    });
  });
});
