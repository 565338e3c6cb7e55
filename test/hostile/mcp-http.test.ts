/**
 * Attack corpus for the MCP Streamable HTTP surface (`listen()`, `handler()`): whatever
 * bytes a peer sends, it gets a 4xx (or a JSON-RPC error) and the server keeps serving.
 * Requests go over a raw `net` socket so that request-targets and headers reach the
 * server exactly as written, without an HTTP client normalising them.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../src/ai/mcp/index.ts';
import { echo } from '../ai/mcp/fixtures/tools.ts';

interface RawReply {
  status: number;
  head: string;
  body: string;
}

/** Sends `bytes` on a fresh connection and reads the reply until the server closes it. */
function send(port: number, bytes: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const split = received.indexOf('\r\n\r\n');
      const head = split < 0 ? received : received.slice(0, split);
      const rest = split < 0 ? '' : received.slice(split + 4);
      const body = /^transfer-encoding: chunked/im.test(head) ? dechunk(rest) : rest;
      resolve({ status: Number(head.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0), head, body });
    });
    socket.end(bytes, 'latin1');
  });
}

/** The payload of a chunked body. */
function dechunk(body: string): string {
  let payload = '';
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.slice(at, lineEnd), 16);
    if (!(size > 0)) return payload;
    payload += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** One request with `Connection: close`, the target and headers exactly as given. */
function request(
  port: number,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawReply> {
  const body = options.body ?? '';
  const headers: Record<string, string> = {
    Host: `127.0.0.1:${port}`,
    Connection: 'close',
    ...(options.method === 'GET' ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }),
    ...options.headers,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return send(
    port,
    `${options.method ?? 'POST'} ${target} HTTP/1.1\r\n${lines.join('')}\r\n${body}`,
  );
}

const MCP_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

const initialize = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    },
  });

const server = mcpServer({ name: 'hostile', version: '1.0.0', tools: [echo] });
let open: McpHttpServer;
let secured: McpHttpServer;
let mounted: Server;
let mountedPort: number;
beforeAll(async () => {
  open = await server.listen();
  secured = await server.listen({ token: 's3cret' });
  const handle = server.handler();
  mounted = createHttpServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => mounted.listen(0, '127.0.0.1', resolve));
  mountedPort = (mounted.address() as AddressInfo).port;
});
afterAll(async () => {
  await open.close();
  await secured.close();
  mounted.closeAllConnections();
  await new Promise((resolve) => mounted.close(resolve));
});

/** A well-formed `initialize` still succeeds: the server is alive and serving. */
async function expectStillServing(port: number, headers: Record<string, string> = {}) {
  const reply = await request(port, '/mcp', {
    headers: { ...MCP_HEADERS, ...headers },
    body: initialize(99),
  });
  expect(reply.status).toBe(200);
  expect(reply.body).toContain('"protocolVersion"');
}

/** Targets that are not a path: `400`, before any other check. */
const NOT_PATHS: [string, string][] = [
  ['an unterminated IPv6 absolute-form', 'http://['],
  ['an unterminated IPv6 scheme-relative target', '//['],
  ['the asterisk-form', '*'],
  ['absolute-form to another host', 'http://evil.example/mcp'],
  ['absolute-form to this very host', 'http://127.0.0.1/mcp'],
  ['authority-form', '127.0.0.1:80'],
  ['a bare word', 'mcp'],
  ['a scheme-relative path', '//evil.example/mcp'],
  ['a very long absolute-form', `http://${'a'.repeat(8_000)}`],
];

/** Paths full of junk: `404` (not the endpoint) or served (the endpoint, junk in the query). */
const JUNK_PATHS: [string, string, number][] = [
  ['percent junk', '/mcp%%%zz%', 404],
  ['backslashes', '/\\evil.example\\mcp', 404],
  ['a very long path', `/${'a'.repeat(8_000)}`, 404],
  ['percent junk in the query', '/mcp?%E0%A4%A', 200],
];

describe('hostile request-targets', () => {
  for (const [port, label, auth] of [
    [() => open.port, 'listen()', {}],
    [() => secured.port, 'listen({ token })', { Authorization: 'Bearer s3cret' }],
    [() => mountedPort, 'handler() mounted in node:http', {}],
  ] as const) {
    it(`${label}: a target that is not a path gets 400, and the server keeps serving`, async () => {
      for (const [what, target] of NOT_PATHS) {
        const reply = await request(port(), target, { headers: MCP_HEADERS, body: initialize(1) });
        expect(reply.status, what).toBe(400);
      }
      await expectStillServing(port(), auth);
    });
  }

  it('listen(): a junk path gets 404, or is served when the junk is in the query', async () => {
    for (const [what, target, status] of JUNK_PATHS) {
      const reply = await request(open.port, target, { headers: MCP_HEADERS, body: initialize(1) });
      expect(reply.status, what).toBe(status);
    }
    await expectStillServing(open.port);
  });

  it('names the bad target in a 400 body, before the Host and token checks', async () => {
    for (const target of ['http://[', '//[']) {
      const reply = await request(secured.port, target, { method: 'GET' });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).error.message).toBe(
        `Bad Request: expected a request-target that is a path such as /mcp, received ${JSON.stringify(target)}`,
      );
    }
    await expectStillServing(secured.port, { Authorization: 'Bearer s3cret' });
  });

  it('quotes at most the first 100 characters of a long target', async () => {
    const reply = await request(open.port, `http://${'a'.repeat(8_000)}`, { method: 'GET' });
    expect(reply.status).toBe(400);
    const message: string = JSON.parse(reply.body).error.message;
    expect(message).toContain('… (8007 characters)');
    expect(message.length).toBeLessThan(250);
  });

  it('control characters and spaces in the target are refused by the HTTP parser', async () => {
    for (const target of ['/mcp\u0001', '/m\u007fcp', '/mcp\ttab']) {
      const reply = await request(open.port, target, { method: 'GET' });
      expect(reply.status, JSON.stringify(target)).toBe(400);
    }
    await expectStillServing(open.port);
  });
});

describe('hostile headers', () => {
  const cases: [string, Record<string, string>, number][] = [
    ['a Host with an unterminated IPv6 literal', { Host: '[' }, 403],
    ['a Host with userinfo', { Host: 'localhost@evil.example' }, 403],
    // The SDK's check reads the hostname: `localhost`, which is allowed.
    ['a Host with a path', { Host: 'localhost/x' }, 200],
    ['an empty Host', { Host: '' }, 403],
    ['an Origin that is not a URL', { Origin: '::::' }, 403],
    ['an Origin of another scheme', { Origin: 'file://' }, 403],
    ['an Origin with an unterminated IPv6 literal', { Origin: 'http://[' }, 403],
    ['a non-ASCII Authorization', { Authorization: 'Bearer \u00ff\u00fe' }, 200],
  ];
  for (const [what, headers, status] of cases) {
    it(`${what}: ${status}, and the server keeps serving`, async () => {
      const reply = await request(open.port, '/mcp', {
        headers: { ...MCP_HEADERS, ...headers },
        body: initialize(1),
      });
      expect(reply.status).toBe(status);
      await expectStillServing(open.port);
    });
  }

  it('a wrong or non-ASCII token gets 401', async () => {
    for (const authorization of ['Bearer \u00ff\u00fe', 'Bearer s3cret2', 'bearer s3cret']) {
      const reply = await request(secured.port, '/mcp', {
        headers: { ...MCP_HEADERS, Authorization: authorization },
        body: initialize(1),
      });
      expect(reply.status, authorization).toBe(401);
    }
    await expectStillServing(secured.port, { Authorization: 'Bearer s3cret' });
  });

  it('headers over the size limit get 431 from Node, and the server keeps serving', async () => {
    // Over Node's 16 KiB limit, but small enough to be read in one go: with bytes left
    // unread, Node 24 closes with a reset that can overtake its 431 on the client side.
    const reply = await request(open.port, '/mcp', {
      headers: { ...MCP_HEADERS, 'X-Pad': 'x'.repeat(20 * 1024) },
      body: initialize(1),
    });
    expect(reply.status).toBe(431);
    await expectStillServing(open.port);
  });

  it('a malformed request line gets 400 from Node', async () => {
    const reply = await send(open.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(reply.status).toBe(400);
    await expectStillServing(open.port);
  });
});

describe('hostile bodies', () => {
  const cases: [string, string, Record<string, string>?][] = [
    ['malformed JSON', '{"jsonrpc": "2.0", "method": '],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
    ['a JSON string', '"initialize"'],
    ['an empty batch', '[]'],
    ['a batch of junk', '[1, "two", null, {}]'],
    ['a batch of requests', `[${initialize(1)}, ${initialize(2)}]`],
    ['an object that is not JSON-RPC', '{"hello": "world"}'],
    [
      'a JSON-RPC request with params that are not an object',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":7}',
    ],
    [
      'a tools/call without a session or handshake',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}',
    ],
    [
      'a prototype-polluting payload',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","__proto__":{"polluted":true},"params":{"__proto__":{"polluted":true}}}',
    ],
    ['deeply nested arrays', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['an empty body', ''],
    ['a body that is not UTF-8', '\u00ff\u00fe\u0000{'],
    ['the wrong content type', initialize(1), { 'Content-Type': 'text/plain' }],
    ['no Accept header', initialize(1), { Accept: '' }],
  ];
  for (const [what, body, headers] of cases) {
    it(`${what}: a 4xx, and the server keeps serving`, async () => {
      const reply = await request(open.port, '/mcp', {
        headers: { ...MCP_HEADERS, ...headers },
        body,
      });
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      await expectStillServing(open.port);
    });
  }

  it('GET and DELETE without a session are refused with a 4xx', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const reply = await request(open.port, '/mcp', { method, headers: MCP_HEADERS });
      expect(reply.status, method).toBeGreaterThanOrEqual(400);
      expect(reply.status, method).toBeLessThan(500);
    }
    await expectStillServing(open.port);
  });

  it('an unknown session id gets 404', async () => {
    const reply = await request(open.port, '/mcp', {
      headers: { ...MCP_HEADERS, 'Mcp-Session-Id': '../../etc/passwd' },
      body: initialize(1),
    });
    expect(reply.status).toBe(404);
  });
});

describe('listen() on a busy port', () => {
  it('rejects with an error naming host:port and suggesting --port', async () => {
    const error = await server.listen({ port: open.port }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`listen: 127.0.0.1:${open.port} is already in use`);
    expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
    await expectStillServing(open.port);
  });
});
