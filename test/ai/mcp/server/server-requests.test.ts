/**
 * `ctx.sample()` and `ctx.elicit()` over a 2025-era HTTP session whose client never opens
 * the optional GET stream (the transport says it MAY): the server's request travels on
 * the SSE stream of the `tools/call` it belongs to, so the official SDK clients — v2
 * `@modelcontextprotocol/client` and v1 `@modelcontextprotocol/sdk` — answer it.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../../../src/ai/mcp/index.ts';
import { checkElicitRequest } from '../../../../src/ai/mcp/server/server-requests.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { fetchWithoutGetStream } from '../fixtures/clients.ts';

const askBoth = tool({
  name: 'ask_both',
  description: "Asks the client's model, then its user.",
  parameters: v.object({}),
  execute: async (_args, ctx) => {
    const sampled = await ctx.sample({
      messages: [{ role: 'user', content: 'Say hello.' }],
      maxTokens: 20,
    });
    const answered = await ctx.elicit({
      message: 'Your name?',
      schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return `${sampled.text} / ${JSON.stringify(answered)}`;
  },
});

const SAMPLED = {
  model: 'test-model',
  role: 'assistant',
  content: { type: 'text', text: 'Hello!' },
} as const;
const ANSWERED = { action: 'accept', content: { name: 'Ana' } } as const;
const EXPECTED = 'Hello! / {"action":"accept","content":{"name":"Ana"}}';

describe('ctx.sample() and ctx.elicit() without the GET stream', () => {
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await mcpServer({ name: 'asker', version: '1.0.0', tools: [askBoth] }).listen({
      port: 0,
    });
  });
  afterAll(() => http.close());

  it('answers through a v2 SDK client (2025 era) that never opens it', async () => {
    const client = new Client(
      { name: 'v2-no-get', version: '1.0.0' },
      { capabilities: { sampling: {}, elicitation: { form: {} } } },
    );
    client.setRequestHandler('sampling/createMessage', () => SAMPLED);
    client.setRequestHandler('elicitation/create', () => ANSWERED);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), { fetch: fetchWithoutGetStream() }),
    );
    const result = await client.callTool(
      { name: 'ask_both', arguments: {} },
      { signal: AbortSignal.timeout(10_000) },
    );
    expect(result.content).toEqual([{ type: 'text', text: EXPECTED }]);
    await client.close();
  });

  it('answers through a v1 SDK client that never opens it', async () => {
    const client = new V1Client(
      { name: 'v1-no-get', version: '1.0.0' },
      { capabilities: { sampling: {}, elicitation: {} } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, () => SAMPLED);
    client.setRequestHandler(ElicitRequestSchema, () => ANSWERED);
    await client.connect(
      new V1HttpTransport(new URL(http.url), { fetch: fetchWithoutGetStream() }),
    );
    const result = await client.callTool({ name: 'ask_both', arguments: {} }, undefined, {
      signal: AbortSignal.timeout(10_000),
    });
    expect(result.content).toEqual([{ type: 'text', text: EXPECTED }]);
    await client.close();
  });
});

describe('checkElicitRequest', () => {
  const fields = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, { type: 'string' }]));

  it('refuses a 100,000-field form by its count, before checking any field', () => {
    const schema = { type: 'object', properties: fields(100_000) } as never;
    const started = performance.now();
    expect(() => checkElicitRequest({ message: 'Fill in', schema })).toThrow(
      'ctx.elicit: schema: expected at most 100 properties, received 100000',
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('takes 100 fields, and checks a huge required list in linear time', () => {
    const schema = { type: 'object', properties: fields(100) } as never;
    expect(() => checkElicitRequest({ message: 'Fill in', schema })).not.toThrow();
    const required = Array.from({ length: 1_000_000 }, (_, i) => `f${i % 100}`);
    const long = { type: 'object', properties: fields(100), required } as never;
    const started = performance.now();
    expect(() => checkElicitRequest({ message: 'Fill in', schema: long })).not.toThrow();
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
