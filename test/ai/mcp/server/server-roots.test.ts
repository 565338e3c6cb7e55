/**
 * `ctx.listRoots()` between fino's client (`onRoots`) and fino's server: over Streamable
 * HTTP in the default negotiation (2026-07-28, an input request) and over stdio (a
 * `roots/list` request while the call is open), with a prompt's form on the same
 * connections; a client without roots is told so. Decisions 207, 208.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpClient, stdioTransport } from '../../../../src/ai/mcp/index.ts';
import { rootsServer } from '../fixtures/roots-server.ts';

/** The text of the first content block, when there is one. */
const textOf = (content: unknown): string | undefined =>
  (content as { text?: string }[] | undefined)?.[0]?.text;

const ROOTS = [{ uri: 'file:///home/ana/project', name: 'project' }, { uri: 'file:///tmp' }];
const handlers = {
  onRoots: () => ROOTS,
  onElicit: () => ({ action: 'accept' as const, content: { topic: 'tides' } }),
};

const exercise = async (client: ReturnType<typeof mcpClient>) => {
  const where = (await client.tools()).find((found) => found.name === 'where');
  const result = await where?.invoke({}, { signal: AbortSignal.timeout(20_000) } as never);
  expect(JSON.parse(textOf(result?.content) ?? '')).toEqual(ROOTS);
  const brief = await client.getPrompt('brief');
  expect((brief.messages[0]?.content as { text?: string } | undefined)?.text).toBe(
    'Write a brief on tides.',
  );
};

describe('ctx.listRoots and prompt forms, fino client to fino server', () => {
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await rootsServer().listen({ port: 0 });
  });
  afterAll(() => http.close());

  it('over Streamable HTTP in the default negotiation (2026-07-28)', async () => {
    const client = mcpClient({
      transport: new StreamableHTTPClientTransport(new URL(http.url)),
      ...handlers,
    });
    await exercise(client);
    expect(client.protocolVersion()).toBe('2026-07-28');
    await client.close();
  });

  it('over stdio (a roots/list request while the call is open)', async () => {
    const client = mcpClient({
      transport: stdioTransport({
        command: process.execPath,
        args: ['--import', 'tsx', new URL('../fixtures/roots-server.ts', import.meta.url).pathname],
      }),
      ...handlers,
    });
    await exercise(client);
    expect(client.protocolVersion()).not.toBe('2026-07-28');
    await client.close();
  }, 30_000);

  it('tells a client without roots that it declares none', async () => {
    const client = mcpClient({ transport: new StreamableHTTPClientTransport(new URL(http.url)) });
    const where = (await client.tools()).find((found) => found.name === 'where');
    const result = await where?.invoke({}, { signal: AbortSignal.timeout(10_000) } as never);
    // On 2026-07-28 the server answers -32021 (decision 209); the client hands its
    // message to the caller as an isError result.
    expect(result?.isError).toBe(true);
    expect(JSON.stringify(result?.content)).toContain(
      'ctx.listRoots: this MCP client shares no roots (it declares no roots capability)',
    );
    await client.close();
  });
});
