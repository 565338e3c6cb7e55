import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../../../../src/ai/mcp/index.ts';
import { connectClient } from '../../fixtures/clients.ts';
import { echo } from '../../fixtures/tools.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request, with full control of the headers (fetch forbids setting Host). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
) {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'POST', headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const JSON_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

let http: McpHttpServer;
let secured: McpHttpServer;
beforeAll(async () => {
  const server = mcpServer({ name: 'safety', version: '1.0.0', tools: [echo] });
  http = await server.listen({ maxBodyBytes: 10_000 });
  secured = await server.listen({ token: 's3cret' });
});
afterAll(async () => {
  await http.close();
  await secured.close();
});

/** A full client round trip, proving the server still serves. */
async function stillServes(url: string, headers?: Record<string, string>) {
  if (headers) {
    const res = await raw(url, { headers: { ...JSON_HEADERS, ...headers }, body: initialize });
    expect(res.status).toBe(200);
    return;
  }
  const client = await connectClient('v1', { url });
  const result = await client.callTool('echo', { text: 'still here' });
  await client.close();
  expect(result.content).toEqual([{ type: 'text', text: 'echo: still here' }]);
}

describe('Streamable HTTP safety', () => {
  it('binds 127.0.0.1 by default and serves the endpoint at /mcp', () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(http.port).toBeGreaterThan(0);
  });

  it('rejects a foreign Origin with 403 (DNS rebinding)', async () => {
    const res = await raw(http.url, {
      headers: { ...JSON_HEADERS, Origin: 'https://evil.example' },
      body: initialize,
    });
    expect(res.status).toBe(403);
    await stillServes(http.url);
  });

  it('rejects a foreign Host with 403, and accepts a local Origin', async () => {
    const res = await raw(http.url, {
      headers: { ...JSON_HEADERS, Host: 'evil.example' },
      body: initialize,
    });
    expect(res.status).toBe(403);
    await stillServes(http.url, { Origin: 'http://localhost:5173' });
  });

  it('answers 401 with WWW-Authenticate when the bearer token is missing or wrong', async () => {
    for (const headers of [JSON_HEADERS, { ...JSON_HEADERS, Authorization: 'Bearer wrong' }]) {
      const res = await raw(secured.url, { headers, body: initialize });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    await stillServes(secured.url, { Authorization: 'Bearer s3cret' });
  });

  it('answers malformed JSON with a JSON-RPC parse error and keeps serving', async () => {
    const res = await raw(http.url, {
      headers: JSON_HEADERS,
      body: '{"jsonrpc": "2.0", "method": ',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe(-32700);
    await stillServes(http.url);
  });

  it('answers a message that is not JSON-RPC with a protocol error and keeps serving', async () => {
    const res = await raw(http.url, { headers: JSON_HEADERS, body: '{"hello": "world"}' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(res.body).error.code).toBeLessThan(-32000);
    await stillServes(http.url);
  });

  it('answers an oversized body with 413 and keeps serving', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(20_000) },
    });
    const res = await raw(http.url, { headers: JSON_HEADERS, body: big });
    expect(res.status).toBe(413);
    await stillServes(http.url);
  });

  it('answers other paths with 404', async () => {
    const res = await raw(http.url.replace('/mcp', '/other'), { method: 'GET' });
    expect(res.status).toBe(404);
  });

  it('mounts as a handler in an existing Node server', async () => {
    const handler = mcpServer({ name: 'mounted', version: '1.0.0', tools: [echo] }).handler();
    const server = createServer((req, res) => {
      if (req.url === '/tools/mcp') void handler(req, res);
      else res.writeHead(200).end('home');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tools/mcp`;
    try {
      await stillServes(url);
    } finally {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
