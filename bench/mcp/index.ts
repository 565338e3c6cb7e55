/**
 * `tools/call` over MCP: fino's `mcpServer` against the same tool registered directly on
 * the SDK's `McpServer` — v2 (`@modelcontextprotocol/server`) and v1
 * (`@modelcontextprotocol/sdk`) — each in its own server process, driven by the same SDK
 * client from this process.
 *
 * - Round trips, one call at a time (timed in batches): over stdio, and over Streamable
 *   HTTP with a 2025-era client (sessions on fino's side, the SDK's stateless fallback
 *   on its side) and a 2026-07-28 client (per-request on both).
 * - 50 concurrent calls over Streamable HTTP: calls/s, and the server process's own CPU
 *   time per call (`process.cpuUsage()` read over an IPC channel before and after each
 *   burst). Every server is warmed up first; bursts are interleaved across servers and
 *   the median of `BENCH_MCP_ROUNDS` (default 5) bursts of `BENCH_MCP_CALLS` (default
 *   1000) is reported with min–max.
 *
 *     npm run bench -- mcp
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
import { compareBatched, loadLine, quantile } from '../harness.ts';

type Kind = 'fino' | 'sdk' | 'sdk-v1';
const script = fileURLToPath(new URL('./servers.ts', import.meta.url));
const children: ChildProcess[] = [];
const CONCURRENCY = 50;

// The SDK client adds an abort listener per call in flight to one signal and Node warns
// once past 1500, then again for every call: print each kind of warning once.
const warned = new Set<string>();
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warned.has(warning.name)) return;
  warned.add(warning.name);
  console.error(`${warning.name}: ${warning.message} (printed once)`);
});

/** Starts an HTTP server process (with an IPC channel for its CPU time) and reads the URL it prints. */
async function httpServer(kind: Kind): Promise<{ url: URL; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind, 'http'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  children.push(child);
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { url: new URL(chunk.toString().trim()), child };
}

/** The server process's CPU time so far, in microseconds (user + system). */
async function cpuOf(child: ChildProcess): Promise<number> {
  const answer = once(child, 'message') as Promise<[NodeJS.CpuUsage]>;
  child.send('cpu');
  const [usage] = await answer;
  return usage.user + usage.system;
}

async function connect(transport: Transport, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: modern ? { mode: 'auto' } : undefined },
  );
  await client.connect(transport);
  return client;
}

const stdioClient = (kind: Kind) =>
  connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', script, kind, 'stdio'],
    }),
  );

const call = async (client: Client) => {
  const result = await client.callTool({ name: 'echo', arguments: { text: 'ping' } });
  if ((result.content[0] as { text?: string }).text !== 'ping') throw new Error('wrong answer');
};

/** Makes `calls` calls with `CONCURRENCY` in flight at once. */
async function burst(client: Client, calls: number): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (started++ < calls) await call(client);
    }),
  );
}

interface ConcurrentPeer {
  name: string;
  client: Client;
  child: ChildProcess;
  rates: number[];
  cpuPerCall: number[];
}

async function concurrencyTable(peers: ConcurrentPeer[]): Promise<void> {
  const calls = Number(process.env.BENCH_MCP_CALLS ?? 1000);
  const rounds = Number(process.env.BENCH_MCP_ROUNDS ?? 5);
  for (const peer of peers) await burst(peer.client, calls); // warm-up: JIT, sockets
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < peers.length; i++) {
      const peer = peers[(round + i) % peers.length];
      const cpuBefore = await cpuOf(peer.child);
      const started = performance.now();
      await burst(peer.client, calls);
      const seconds = (performance.now() - started) / 1000;
      const cpu = (await cpuOf(peer.child)) - cpuBefore;
      peer.rates.push(calls / seconds);
      peer.cpuPerCall.push(cpu / calls);
    }
  }
  const base = peers[0];
  const median = (values: number[]) => quantile(values, 0.5);
  const span = (values: number[], digits: number) =>
    `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
  console.log(
    [
      `### tools/call over Streamable HTTP, ${CONCURRENCY} concurrent, ${calls} calls per burst`,
      '',
      `| server, client | protocol | calls/s (median of ${rounds}) | min–max | × ${base.name} | server CPU µs/call | min–max | × ${base.name} |`,
      '|---|---|---:|---:|---:|---:|---:|---:|',
      ...peers.map(
        (p) =>
          `| ${p.name} | ${p.client.getNegotiatedProtocolVersion()} | ${median(p.rates).toFixed(0)} | ${span(p.rates, 0)} | ${(median(p.rates) / median(base.rates)).toFixed(2)} | ${median(p.cpuPerCall).toFixed(0)} | ${span(p.cpuPerCall, 0)} | ${(median(p.cpuPerCall) / median(base.cpuPerCall)).toFixed(2)} |`,
      ),
      '',
      `_${loadLine()}_`,
      '',
    ].join('\n'),
  );
  for (const server of ['fino', 'sdk v2']) {
    const old = peers.find((p) => p.name === `${server}, 2025 client`);
    const modern = peers.find((p) => p.name === `${server}, 2026-07-28 client`);
    if (old && modern) {
      console.log(
        `- ${server}: the 2026-07-28 path takes ${(median(modern.cpuPerCall) / median(old.cpuPerCall)).toFixed(2)}× the 2025 path's server CPU per call, at ${(median(modern.rates) / median(old.rates)).toFixed(2)}× its calls/s`,
      );
    }
  }
  console.log('');
}

const clients: Client[] = [];
try {
  const [finoStdio, sdkStdio] = await Promise.all([stdioClient('fino'), stdioClient('sdk')]);
  clients.push(finoStdio, sdkStdio);
  const servers = {
    sdkV1: await httpServer('sdk-v1'),
    sdk: await httpServer('sdk'),
    sdkModern: await httpServer('sdk'),
    fino: await httpServer('fino'),
    finoModern: await httpServer('fino'),
  };
  const peers: ConcurrentPeer[] = [];
  for (const [name, server, modern] of [
    ['sdk v1, 2025 client', servers.sdkV1, false],
    ['sdk v2, 2025 client', servers.sdk, false],
    ['sdk v2, 2026-07-28 client', servers.sdkModern, true],
    ['fino, 2025 client', servers.fino, false],
    ['fino, 2026-07-28 client', servers.finoModern, true],
  ] as const) {
    const client = await connect(new StreamableHTTPClientTransport(server.url), modern);
    clients.push(client);
    peers.push({ name, client, child: server.child, rates: [], cpuPerCall: [] });
  }
  const byName = (name: string) => peers.find((p) => p.name === name)!.client;

  for (const [title, fino, sdk] of [
    ['tools/call over stdio, one at a time', finoStdio, sdkStdio],
    [
      'tools/call over Streamable HTTP, one at a time, 2025-era client',
      byName('fino, 2025 client'),
      byName('sdk v2, 2025 client'),
    ],
    [
      'tools/call over Streamable HTTP, one at a time, 2026-07-28 client',
      byName('fino, 2026-07-28 client'),
      byName('sdk v2, 2026-07-28 client'),
    ],
  ] as const) {
    const results = await compareBatched(
      title,
      { 'sdk McpServer': () => call(sdk), 'fino mcpServer': () => call(fino) },
      { baseline: 'sdk McpServer', sampleMs: 50 },
    );
    for (const r of results) {
      console.log(`- ${r.name}: ${Math.round(1e9 / r.medianNs)} round trips/s`);
    }
    console.log('');
  }
  await concurrencyTable(peers);
} finally {
  await Promise.all(clients.map((c) => c.close()));
  for (const child of children) child.kill();
}
