/**
 * Attack corpus for `mcpClient()`: what a remote server lists or asks. One unusable tool
 * definition is skipped with a warning naming it; the others stay usable; nothing a
 * server sends pollutes a prototype.
 */
import { InMemoryTransport, type Tool as McpTool, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { type McpClientWarning, mcpClient } from '../../src/ai/mcp/index.ts';
import type { Progress } from '../../src/task/index.ts';

const good: McpTool = {
  name: 'good',
  description: 'Answers ok.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
};

/** A low-level SDK server listing `tools` as given; `tools/call` answers with the tool's name. */
async function serverListing(tools: McpTool[]) {
  const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', (request) => ({
    content: [{ type: 'text', text: `called ${request.params.name}` }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return clientSide;
}

const BAD_DEFINITIONS: [string, McpTool, RegExp][] = [
  [
    'a negative minLength',
    {
      name: 'negative',
      inputSchema: { type: 'object', properties: { a: { minLength: -1 } } },
    },
    /minLength: expected a non-negative integer, received number -1/,
  ],
  [
    'an unresolvable $ref',
    {
      name: 'dangling',
      inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/nowhere' } } },
    },
    /cannot resolve \$ref "#\/\$defs\/nowhere"/,
  ],
  [
    'a misspelt type',
    {
      name: 'misspelt',
      inputSchema: { type: 'object', properties: { a: { type: 'strnig' } } },
    },
    /expected a JSON type name/,
  ],
  [
    'a remote $ref',
    {
      name: 'remote_ref',
      inputSchema: {
        type: 'object',
        properties: { a: { $ref: 'https://evil.example/schema.json' } },
      },
    },
    /\$ref/,
  ],
];

describe('mcpClient().tools() with one unusable remote definition', () => {
  for (const [what, bad, reason] of BAD_DEFINITIONS) {
    it(`${what}: skips that tool with a warning naming it, and keeps the others`, async () => {
      const warnings: McpClientWarning[] = [];
      const client = mcpClient({
        transport: await serverListing([good, bad]),
        onWarning: (warning) => warnings.push(warning),
      });
      const tools = await client.tools();
      expect(tools.map((t) => t.name)).toEqual(['good']);
      expect(await tools[0].invoke({ text: 'x' })).toEqual({
        content: [{ type: 'text', text: 'called good' }],
      });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ type: 'tool-skipped', tool: bad.name });
      expect(warnings[0].message).toContain(
        `mcpClient: skipped remote tool "${bad.name}": its definition is unusable: `,
      );
      expect(warnings[0].message).toMatch(reason);
      expect(warnings[0].cause).toBeInstanceOf(Error);
      // The skipped tool is still fingerprinted: a later change to it is reported.
      expect([...client.fingerprints().keys()]).toEqual(['good', bad.name]);
      await client.close();
    });
  }

  it('warns on console.warn by default', async () => {
    const original = console.warn;
    const printed: unknown[][] = [];
    console.warn = (...args: unknown[]) => void printed.push(args);
    try {
      const client = mcpClient({ transport: await serverListing([BAD_DEFINITIONS[0][1], good]) });
      expect((await client.tools()).map((t) => t.name)).toEqual(['good']);
      await client.close();
    } finally {
      console.warn = original;
    }
    expect(printed).toHaveLength(1);
    expect(String(printed[0][0])).toMatch(/^mcpClient: skipped remote tool "negative": /);
  });
});

describe('hostile remote listings', () => {
  it('a tool named __proto__ and schemas with __proto__ keys pollute nothing', async () => {
    const hostile = JSON.parse(
      '{"name":"__proto__","inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"}},"__proto__":{"polluted":true}}}',
    );
    const warnings: McpClientWarning[] = [];
    const client = mcpClient({
      transport: await serverListing([hostile, good]),
      onWarning: (warning) => warnings.push(warning),
    });
    const tools = await client.tools();
    await client.close();
    expect(tools.map((t) => t.name)).toContain('good');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  const nestedArrays = (depth: number): McpTool => {
    let nested: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < depth; level++) nested = { type: 'array', items: nested };
    const inputSchema = { type: 'object', properties: { a: nested } } as McpTool['inputSchema'];
    return { name: 'deep', inputSchema };
  };

  it('a schema nested 1,000 levels deep is usable', async () => {
    const client = mcpClient({ transport: await serverListing([nestedArrays(1_000), good]) });
    const names = (await client.tools()).map((t) => t.name);
    await client.close();
    expect(names).toEqual(['deep', 'good']);
  });

  it('a listing too deep for the SDK to parse rejects with an error saying so', async () => {
    const client = mcpClient({ transport: await serverListing([nestedArrays(5_000), good]) });
    const error = await client.tools().catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^mcpClient: could not list the server's tools: .*call stack/,
    );
  });
});

describe('mcpClient options', () => {
  it('checks timeoutMs at construction', () => {
    const transport = InMemoryTransport.createLinkedPair()[0];
    for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => mcpClient({ transport, timeoutMs })).toThrow(
        new RangeError(
          `mcpClient: timeoutMs: expected a number of milliseconds > 0 and ≤ 2147483647 (about 24.8 days, the longest a Node.js timer waits), received number ${timeoutMs}`,
        ),
      );
    }
    expect(() => mcpClient({ transport, timeoutMs: '5000' as never })).toThrow(
      /timeoutMs: expected .*, received string "5000"/,
    );
    expect(() => mcpClient({ transport, timeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });

  it('checks the callbacks and approveDestructive at construction', () => {
    const transport = InMemoryTransport.createLinkedPair()[0];
    expect(() => mcpClient({ transport, onElicit: 'yes' as never })).toThrow(
      new TypeError('mcpClient: onElicit: expected a function, received string "yes"'),
    );
    expect(() => mcpClient({ transport, onWarning: {} as never })).toThrow(
      new TypeError('mcpClient: onWarning: expected a function, received object'),
    );
    expect(() => mcpClient({ transport, approveDestructive: 'false' as never })).toThrow(
      new TypeError('mcpClient: approveDestructive: expected a boolean, received string "false"'),
    );
  });
});

describe('hostile structured output and hints', () => {
  it('an unusable outputSchema skips the tool, naming it', async () => {
    const warnings: McpClientWarning[] = [];
    const client = mcpClient({
      transport: await serverListing([
        good,
        {
          name: 'bad_output',
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', properties: { n: { minimum: 'zero' } } } as never,
        },
      ]),
      onWarning: (warning) => warnings.push(warning),
    });
    const tools = await client.tools();
    await client.close();
    expect(tools.map((t) => t.name)).toEqual(['good']);
    expect(warnings.map((w) => w.tool)).toEqual(['bad_output']);
    expect(warnings[0]?.message).toContain('outputSchema is unusable');
  });

  it('structuredContent with __proto__ keys pollutes nothing', async () => {
    const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({
      tools: [
        {
          name: 'sneaky',
          inputSchema: { type: 'object' as const },
          outputSchema: { type: 'object' as const },
        },
      ],
    }));
    server.setRequestHandler('tools/call', () => ({
      content: [{ type: 'text' as const, text: 'ok' }],
      structuredContent: JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'),
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = mcpClient({ transport: clientSide });
    const [sneaky] = await client.tools();
    const result = await sneaky?.invoke({});
    await client.close();
    expect(result?.structuredContent).toMatchObject({ a: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result?.structuredContent)).toBe(Object.prototype);
  });
});

describe('progress a server sends for a direct call', () => {
  it('well-formed updates for the call reach it, cut to size; the rest are ignored', async () => {
    const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [good] }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const progressToken = request.params._meta?.progressToken;
      for (const update of [
        { progressToken, progress: -1 },
        { progressToken, progress: 'half' },
        { progressToken, progress: 1, total: -3, message: 'x'.repeat(10_000) },
        { progressToken, progress: 2, total: 4, __proto__: { polluted: true } },
        { progressToken: 'another call', progress: 9 },
      ]) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: update as never });
      }
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = mcpClient({ transport: clientSide });
    const [tool] = await client.tools();
    const updates: Progress[] = [];
    const result = await tool.invoke({}, { progress: (p) => updates.push(p) });
    expect(result).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(updates).toEqual([
      { progress: 1, message: 'x'.repeat(500) },
      { progress: 2, total: 4 },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await client.close();
  });
});
