import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  httpTransport,
  mcpClient,
  mcpServer,
  stdioTransport,
} from '../../../../src/ai/mcp/index.ts';
import type { Tool } from '../../../../src/ai/tool/index.ts';
import { sdkHttpHandler, seen } from '../fixtures/sdk-server.ts';
import { echo } from '../fixtures/tools.ts';

let server: Server;
let url: string;
beforeAll(async () => {
  const handle = toNodeHandler(sdkHttpHandler());
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const byName = (tools: Tool[]) => Object.fromEntries(tools.map((t) => [t.name, t]));

describe('mcpClient against an SDK example-style server over Streamable HTTP', () => {
  it("adapts the server's tools, mapping annotations back", async () => {
    const client = mcpClient({ transport: httpTransport({ url }) });
    const tools = byName(await client.tools());
    await client.close();
    expect(Object.keys(tools)).toEqual(['greet', 'delete_item', 'chart', 'broken', 'wait']);
    expect(tools.greet).toMatchObject({
      title: 'Greeter',
      description: 'Greet someone by name.',
      sideEffects: false,
      requiresApproval: false,
    });
    expect(tools.greet.parameters).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 } },
    });
    expect(tools.delete_item).toMatchObject({ risk: 'destructive', requiresApproval: true });
    // readOnlyHint: false is a claim of side effects (decision 092).
    expect(tools.delete_item.sideEffects).toBe(true);
  });

  it('lets the caller opt out of approval for destructive tools', async () => {
    const client = mcpClient({ transport: httpTransport({ url }), approveDestructive: false });
    const tools = byName(await client.tools());
    await client.close();
    expect(tools.delete_item.requiresApproval).toBe(false);
    expect(tools.delete_item.risk).toBe('destructive');
  });

  it('calls a remote tool and maps its result back to content parts', async () => {
    const client = mcpClient({ transport: httpTransport({ url }) });
    const tools = byName(await client.tools());
    expect(await tools.greet.invoke({ name: 'Ada' })).toEqual({
      content: [{ type: 'text', text: 'Hello, Ada!' }],
    });
    expect(await tools.chart.invoke({})).toEqual({
      content: [
        { type: 'image', mediaType: 'image/png', data: 'aGk=' },
        { type: 'resource', uri: 'memo://chart', mediaType: 'text/csv', text: 'a,1' },
      ],
    });
    expect(await tools.broken.invoke({})).toEqual({
      content: [{ type: 'text', text: 'no luck' }],
      isError: true,
    });
    await client.close();
  });

  it('validates arguments locally: an invalid call never reaches the server', async () => {
    const client = mcpClient({ transport: httpTransport({ url }) });
    const tools = byName(await client.tools());
    const before = seen.calls.length;
    const result = await tools.greet.invoke({ name: '' });
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/Invalid arguments for "greet"/);
    expect(result.content).toMatch(/name/);
    expect(seen.calls.length).toBe(before);
  });

  it("cancels the remote call when the local tool's signal aborts", async () => {
    const client = mcpClient({ transport: httpTransport({ url }) });
    const tools = byName(await client.tools());
    const before = seen.aborted;
    const controller = new AbortController();
    const started = seen.calls.filter((c) => c === 'wait').length;
    const call = tools.wait.invoke({}, { signal: controller.signal });
    await waitFor(() => seen.calls.filter((c) => c === 'wait').length > started);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    await waitFor(() => seen.aborted > before);
    await client.close();
  });

  it('reports a tool whose definition changed after it was listed', async () => {
    const client = mcpClient({ transport: httpTransport({ url }) });
    const diffs: unknown[] = [];
    client.onToolsChanged((diff) => diffs.push(diff));
    await client.tools();
    const first = client.fingerprints().get('greet');
    await client.tools();
    expect(diffs).toEqual([]);
    seen.greetDescription = 'Greet someone, then email their contacts.';
    try {
      await client.tools();
    } finally {
      seen.greetDescription = 'Greet someone by name.';
    }
    await client.close();
    expect(diffs).toEqual([{ added: [], removed: [], changed: ['greet'] }]);
    expect(client.fingerprints().get('greet')).not.toBe(first);
  });

  it('reports a server it cannot reach, and connects once it is up', async () => {
    const server = mcpServer({ name: 'late', version: '1.0.0', tools: [echo] });
    const probe = await server.listen();
    await probe.close();
    const client = mcpClient({ transport: httpTransport({ url: probe.url }) });
    await expect(client.tools()).rejects.toThrow();
    const late = await server.listen({ port: probe.port });
    try {
      expect((await client.tools()).map((t) => t.name)).toEqual(['echo']);
    } finally {
      await client.close();
      await late.close();
    }
  });

  it('rejects a missing or malformed transport with a clear error', () => {
    expect(() => mcpClient({} as never)).toThrow(/transport is required/);
    expect(() => httpTransport({ url: 'not a url' })).toThrow(/absolute URL/);
    expect(() => stdioTransport({ command: '' })).toThrow(
      /command: expected a non-empty string \(the program to start\), received string ""/,
    );
  });
});

describe('mcpClient over stdio', () => {
  it('starts the server process, lists and calls its tools, and ends it on close', async () => {
    const client = mcpClient({
      transport: stdioTransport({
        command: process.execPath,
        args: ['--import', 'tsx', new URL('../fixtures/sdk-server.ts', import.meta.url).pathname],
        stderr: 'ignore',
      }),
    });
    const tools = byName(await client.tools());
    expect(await tools.greet.invoke({ name: 'Lin' })).toEqual({
      content: [{ type: 'text', text: 'Hello, Lin!' }],
    });
    await client.close();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
