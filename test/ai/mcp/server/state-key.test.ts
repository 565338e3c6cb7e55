/**
 * `mcpServer({ stateKey })`: two instances sharing the key answer each other's sealed
 * `requestState` (a retry behind a load balancer, or after a restart); instances without
 * it refuse; a short key is refused at construction without showing it. Decision 206.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../../../src/ai/mcp/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { modernRequest } from '../fixtures/modern-http.ts';

const greet = tool({
  name: 'greet',
  description: 'Asks a name, then greets.',
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) => {
    const answer = await ctx.elicit({
      key: 'user_name',
      message: 'Your name?',
      schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : 'no name';
  },
});

const servers: McpHttpServer[] = [];
const instance = async (stateKey?: string | Uint8Array) => {
  const http = await mcpServer({ name: 'lb', version: '1.0.0', tools: [greet], stateKey }).listen({
    port: 0,
  });
  servers.push(http);
  return http;
};

/** Round one on `first`, the answer sent to `second`. */
const roundTrip = async (first: McpHttpServer, second: McpHttpServer) => {
  const asked = await modernRequest(first.url, 'tools/call', { name: 'greet', arguments: {} });
  expect(asked.result.resultType).toBe('input_required');
  return modernRequest(second.url, 'tools/call', {
    name: 'greet',
    arguments: {},
    inputResponses: { user_name: { action: 'accept', content: { name: 'Ana' } } },
    requestState: asked.result.requestState,
  });
};

describe('mcpServer({ stateKey })', () => {
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((http) => http.close()));
  });

  it('lets two instances with the same key answer each other’s states', async () => {
    const key = randomBytes(32).toString('base64url');
    const [a, b] = [await instance(key), await instance(key)];
    expect((await roundTrip(a, b)).result.content[0].text).toBe('Hello, Ana!');
    expect((await roundTrip(b, a)).result.content[0].text).toBe('Hello, Ana!');
    const bytes = randomBytes(48);
    const [c, d] = [await instance(bytes), await instance(new Uint8Array(bytes))];
    expect((await roundTrip(c, d)).result.content[0].text).toBe('Hello, Ana!');
  });

  it('refuses a state from an instance with another (or a random) key with -32602', async () => {
    const [a, b] = [await instance(randomBytes(32)), await instance()];
    const answer = await roundTrip(a, b);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('Invalid or expired requestState');
  });

  it('refuses a bad stateKey at construction, naming the field and never showing the value', () => {
    const make = (stateKey: unknown) => () =>
      mcpServer({ name: 'x', version: '1', tools: [], stateKey: stateKey as string });
    expect(make('short-secret')).toThrow(
      "mcpServer: stateKey: expected a string or Uint8Array of at least 32 bytes (e.g. randomBytes(32).toString('base64url')), shared by every instance that may see a client's retry; received a string of 12 bytes",
    );
    expect(make('short-secret')).not.toThrow(/short-secret/u);
    expect(make(new Uint8Array(31))).toThrow('received a Uint8Array of 31 bytes');
    expect(make(null)).toThrow('received null');
    expect(make(42)).toThrow('received number');
    expect(make('')).toThrow('received a string of 0 bytes');
  });
});
