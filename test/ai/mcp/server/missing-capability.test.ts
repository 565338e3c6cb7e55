/**
 * On 2026-07-28 the client's capabilities travel with each request: a tool that needs one
 * the request did not declare (sampling, a form, roots) fails the request with `-32021`
 * MissingRequiredClientCapabilityError and HTTP 400, as the revision requires; a tool
 * that catches it and answers otherwise still answers (decision 209).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../../../src/ai/mcp/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { modernRequest } from '../fixtures/modern-http.ts';

const none = v.object({});
const hello = { messages: [{ role: 'user' as const, content: 'Hello' }], maxTokens: 5 };
const nameForm = { type: 'object' as const, properties: { name: { type: 'string' } } };

const tools = [
  tool({
    name: 'sample',
    parameters: none,
    execute: async (_a, ctx) => (await ctx.sample(hello)).text,
  }),
  tool({
    name: 'elicit',
    parameters: none,
    execute: async (_a, ctx) => (await ctx.elicit({ message: 'Name?', schema: nameForm })).action,
  }),
  tool({
    name: 'roots',
    parameters: none,
    execute: async (_a, ctx) => `${(await ctx.listRoots()).length}`,
  }),
  tool({
    name: 'sample_or_not',
    parameters: none,
    execute: async (_a, ctx) =>
      ctx.sample(hello).then(
        (a) => a.text,
        () => 'answered without sampling',
      ),
  }),
];

describe('a capability the 2026-era request did not declare', () => {
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await mcpServer({ name: 'needs', version: '1.0.0', tools }).listen({ port: 0 });
  });
  afterAll(() => http.close());

  it.each([
    ['sample', 'sampling'],
    ['elicit', 'elicitation'],
    ['roots', 'roots'],
  ])('%s: -32021 naming %s, with HTTP 400', async (name, capability) => {
    const answer = await modernRequest(http.url, 'tools/call', { name, arguments: {} }, {});
    expect(answer.status).toBe(400);
    expect(answer.error?.code).toBe(-32021);
    expect(answer.error?.message).toContain(`declares no ${capability} capability`);
  });

  it('is an answer, not an error, when the tool catches it and answers otherwise', async () => {
    const answer = await modernRequest(
      http.url,
      'tools/call',
      { name: 'sample_or_not', arguments: {} },
      {},
    );
    expect(answer.status).toBe(200);
    expect(answer.result.content).toEqual([{ type: 'text', text: 'answered without sampling' }]);
  });
});
