/**
 * `mcpClient()` connection failures: one line naming the server and the cause, and a
 * code to branch on (`McpConnectionError`), against a closed port, a server that wants a
 * token, something that is not an MCP endpoint, and a server command that does not exist.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import {
  httpTransport,
  McpConnectionError,
  mcpClient,
  mcpServer,
  stdioTransport,
} from '../../../../src/ai/mcp/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

const ping = tool({
  name: 'ping',
  description: 'Answers pong.',
  parameters: v.object({}),
  execute: () => 'pong',
});

async function failure(transport: ReturnType<typeof httpTransport>) {
  const client = mcpClient({ transport });
  const error = await client.tools().then(
    () => undefined,
    (e: unknown) => e,
  );
  await client.close();
  expect(error).toBeInstanceOf(McpConnectionError);
  const connection = error as McpConnectionError;
  expect(connection.message).not.toContain('\n');
  expect(connection.message.length).toBeLessThan(500);
  return connection;
}

it('names the URL and the refused connection, as UNREACHABLE', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const url = `http://127.0.0.1:${port}/mcp`;
  const error = await failure(httpTransport({ url }));
  expect(error).toMatchObject({ code: 'UNREACHABLE', target: url, name: 'McpConnectionError' });
  expect(error.message).toBe(
    `mcpClient: could not connect to ${url}: connect ECONNREFUSED 127.0.0.1:${port}`,
  );
  expect(error.cause).toBeDefined(); // the SDK's error, for debugging
});

it('says UNAUTHORIZED when the server wants a token', async () => {
  const http = await mcpServer({ name: 's', version: '1', tools: [ping] }).listen({
    token: 's3cret',
  });
  try {
    const error = await failure(httpTransport({ url: http.url }));
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toMatch(
      new RegExp(`^mcpClient: could not connect to ${http.url.replace(/\./g, '\\.')}: .*401`),
    );
    const client = mcpClient({
      transport: httpTransport({ url: http.url, headers: { Authorization: 'Bearer s3cret' } }),
    });
    expect((await client.tools()).map((t) => t.name)).toEqual(['ping']); // the right token connects
    await client.close();
  } finally {
    await http.close();
  }
});

it('says HANDSHAKE_FAILED when something answers that is not an MCP endpoint', async () => {
  const web = createServer((_req, res) =>
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'),
  );
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/mcp`;
  try {
    const error = await failure(httpTransport({ url }));
    expect(error.code).toBe('HANDSHAKE_FAILED');
    expect(error.message.startsWith(`mcpClient: could not connect to ${url}: `)).toBe(true);
  } finally {
    await new Promise<void>((resolve) => web.close(() => resolve()));
  }
});

it('names the server command that cannot be started, as UNREACHABLE', async () => {
  const error = await failure(
    stdioTransport({ command: 'fino-no-such-command', args: ['serve'], stderr: 'ignore' }),
  );
  expect(error.code).toBe('UNREACHABLE');
  expect(error.message).toMatch(
    /^mcpClient: could not connect to the server command "fino-no-such-command serve": .*ENOENT/,
  );
});
