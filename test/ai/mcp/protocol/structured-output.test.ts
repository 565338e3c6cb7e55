import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpClient, mcpServer } from '../../../../src/ai/mcp/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { CLIENT_KINDS, connectClient } from '../fixtures/clients.ts';
import { PIXEL_PNG } from '../fixtures/tools.ts';

const sumSchema = v.object({ sum: v.number() });
const good = tool({
  name: 'good',
  parameters: v.object({}),
  outputSchema: sumSchema,
  execute: () => JSON.stringify({ sum: 3 }),
});
const wrongType = tool({
  name: 'wrong_type',
  parameters: v.object({}),
  outputSchema: sumSchema,
  execute: () => JSON.stringify({ sum: 'three' }),
});
const prose = tool({
  name: 'prose',
  parameters: v.object({}),
  outputSchema: sumSchema,
  execute: () => 'It is three.',
});
const explicit = tool({
  name: 'explicit',
  parameters: v.object({}),
  outputSchema: sumSchema,
  execute: () => ({ content: 'The sum is 3.', structuredContent: { sum: 3 } }),
});
const imageOnly = tool({
  name: 'image_only',
  parameters: v.object({}),
  outputSchema: sumSchema,
  execute: () => ({
    content: { type: 'image', mediaType: 'image/png', data: PIXEL_PNG },
    structuredContent: { sum: 1 },
  }),
});
const noSchema = tool({
  name: 'no_schema',
  parameters: v.object({}),
  execute: () => JSON.stringify({ anything: true }),
});

let http: McpHttpServer;
beforeAll(async () => {
  http = await mcpServer({
    name: 'structured',
    version: '1.0.0',
    tools: [good, wrongType, prose, explicit, imageOnly, noSchema],
  }).listen({ port: 0 });
});
afterAll(() => http.close());

describe.each(CLIENT_KINDS)('mcpServer structured output, %s client', (kind) => {
  it('sends checked structured content together with its text form', async () => {
    const client = await connectClient(kind, { url: http.url });
    try {
      const ok = await client.callTool('good', {});
      expect(ok.structuredContent).toEqual({ sum: 3 });
      expect(ok.content).toEqual([{ type: 'text', text: '{"sum":3}' }]);
      const own = await client.callTool('explicit', {});
      expect(own.structuredContent).toEqual({ sum: 3 });
      expect(own.content).toEqual([{ type: 'text', text: 'The sum is 3.' }]);
      const image = await client.callTool('image_only', {});
      expect(image.content).toEqual([
        { type: 'image', mimeType: 'image/png', data: PIXEL_PNG },
        { type: 'text', text: '{"sum":1}' },
      ]);
      const plain = await client.callTool('no_schema', {});
      expect(plain.structuredContent).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('answers a result that does not match the outputSchema with isError naming the field', async () => {
    const client = await connectClient(kind, { url: http.url });
    try {
      // The v1 client rejects an invalid structuredContent with -32602: it must never be sent.
      const wrong = await client.callTool('wrong_type', {});
      expect(wrong.isError).toBe(true);
      expect(wrong.structuredContent).toBeUndefined();
      expect(wrong.content[0].text).toContain('does not match its outputSchema');
      expect(wrong.content[0].text).toContain('sum: expected number, received string');
      const text = await client.callTool('prose', {});
      expect(text.isError).toBe(true);
      expect(text.content[0].text).toContain('declares an outputSchema, but its result is not');
    } finally {
      await client.close();
    }
  });
});

describe('mcpClient structured output', () => {
  it("keeps the remote outputSchema and returns the remote tool's structured content", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer({ name: 'mem', version: '1.0.0', tools: [good, explicit] }).connect(serverSide);
    const client = mcpClient({ transport: clientSide });
    const tools = Object.fromEntries((await client.tools()).map((t) => [t.name, t]));
    expect(tools.good.outputSchema).toMatchObject({
      type: 'object',
      properties: { sum: { type: 'number' } },
    });
    expect(await tools.explicit.invoke({})).toEqual({
      content: [{ type: 'text', text: 'The sum is 3.' }],
      structuredContent: { sum: 3 },
    });
    // Served again by a fino server, the structured content passes through.
    const [outerClient, outerServer] = InMemoryTransport.createLinkedPair();
    await mcpServer({ name: 'proxy', version: '1.0.0', tools: [tools.explicit] }).connect(
      outerServer,
    );
    const proxy = mcpClient({ transport: outerClient });
    const [proxied] = await proxy.tools();
    expect((await proxied.invoke({})).structuredContent).toEqual({ sum: 3 });
    await proxy.close();
    await client.close();
  });

  it("refuses a remote result that does not match the tool's outputSchema, naming the field", async () => {
    const server = new Server({ name: 'liar', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({
      tools: [
        {
          name: 'total',
          inputSchema: { type: 'object' as const, properties: {} },
          outputSchema: {
            type: 'object' as const,
            properties: { total: { type: 'integer' } },
            required: ['total'],
          },
        },
      ],
    }));
    server.setRequestHandler('tools/call', () => ({
      content: [{ type: 'text' as const, text: 'total: 2.5' }],
      structuredContent: { total: 2.5 },
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = mcpClient({ transport: clientSide });
    const [total] = await client.tools();
    const result = await total.invoke({});
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.stringify(result.content)).toContain('does not match its outputSchema');
    expect(JSON.stringify(result.content)).toContain(
      'total: expected integer, received number 2.5',
    );
  });

  it('rejects a structuredContent that is not a JSON object from a local tool', async () => {
    const bad = tool({
      name: 'bad',
      execute: () => ({ content: 'x', structuredContent: [1, 2] as never }),
    });
    const result = await bad.invoke({});
    expect(result.isError).toBe(true);
    expect(String(result.content)).toContain(
      'structuredContent: expected a JSON object, received array',
    );
  });
});
