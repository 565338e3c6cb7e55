/**
 * `tools/call` round trips over MCP: fino's `mcpServer` against the same tool registered
 * directly on the SDK's `McpServer`, each in its own server process, driven by the same
 * SDK client in the same run. Over stdio, and over Streamable HTTP with a 2025-era
 * client (sessions on fino's side, the SDK's stateless fallback on its side) and a
 * 2026-07-28 client (per-request on both).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  Client,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { compare } from '../harness.ts';

const script = fileURLToPath(new URL('./servers.ts', import.meta.url));
const children: ChildProcess[] = [];

/** Starts an HTTP server process and reads the URL it prints. */
async function httpServer(kind: 'fino' | 'sdk'): Promise<URL> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind, 'http'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return new URL(chunk.toString().trim());
}

async function connect(transport: Transport, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: modern ? { mode: 'auto' } : undefined },
  );
  await client.connect(transport);
  return client;
}

const stdioClient = (kind: 'fino' | 'sdk') =>
  connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', script, kind, 'stdio'],
    }),
  );

const roundTrip = (client: Client) => async () => {
  const result = await client.callTool({ name: 'echo', arguments: { text: 'ping' } });
  if ((result.content[0] as { text?: string }).text !== 'ping') throw new Error('wrong answer');
};

const clients: Client[] = [];
try {
  const [finoStdio, sdkStdio] = await Promise.all([stdioClient('fino'), stdioClient('sdk')]);
  const [finoUrl, sdkUrl] = await Promise.all([httpServer('fino'), httpServer('sdk')]);
  const [finoHttp, sdkHttp, finoModern, sdkModern] = await Promise.all([
    connect(new StreamableHTTPClientTransport(finoUrl)),
    connect(new StreamableHTTPClientTransport(sdkUrl)),
    connect(new StreamableHTTPClientTransport(finoUrl), true),
    connect(new StreamableHTTPClientTransport(sdkUrl), true),
  ]);
  clients.push(finoStdio, sdkStdio, finoHttp, sdkHttp, finoModern, sdkModern);

  for (const [title, fino, sdk] of [
    ['tools/call over stdio', finoStdio, sdkStdio],
    ['tools/call over Streamable HTTP, 2025-era client', finoHttp, sdkHttp],
    ['tools/call over Streamable HTTP, 2026-07-28 client', finoModern, sdkModern],
  ] as const) {
    const results = await compare(
      title,
      { 'sdk McpServer': roundTrip(sdk), 'fino mcpServer': roundTrip(fino) },
      { baseline: 'sdk McpServer' },
    );
    for (const r of results) {
      console.log(`- ${r.name}: ${Math.round(1e9 / r.nsPerOp)} round trips/s`);
    }
    console.log('');
  }
} finally {
  await Promise.all(clients.map((c) => c.close()));
  for (const child of children) child.kill();
}
