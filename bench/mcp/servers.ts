/**
 * The servers the benchmark compares, serving the same `echo` tool: fino's `mcpServer`,
 * the SDK's own `McpServer` with `registerTool` (its documented idiom) from v2
 * (`@modelcontextprotocol/server`, kind `sdk`) and from v1 (`@modelcontextprotocol/sdk`,
 * kind `sdk-v1`, HTTP only: one session per client, as its README's Streamable HTTP
 * example). Run as a script (`servers.ts <fino|sdk|sdk-v1> <stdio|http>`) it serves over
 * that transport; for HTTP it prints the endpoint's URL on stdout. Started with an IPC
 * channel, it answers every message with its `process.cpuUsage()`, so the benchmark can
 * charge the server's own CPU time to the calls it served — except `'exit'`, on which it
 * exits (so that `node --cpu-prof` writes its profile).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import { mcpServer } from '../../src/ai/mcp/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

const echo = tool({
  name: 'echo',
  description: 'Repeat a text.',
  parameters: v.object({ text: v.string() }),
  sideEffects: false,
  execute: ({ text }) => text,
});

function sdkServer(): McpServer {
  const server = new McpServer({ name: 'sdk', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Repeat a text.',
      inputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

function sdkV1Server(): McpServerV1 {
  const server = new McpServerV1({ name: 'sdk-v1', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Repeat a text.',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

/** The v1 SDK's stateful Streamable HTTP idiom: a transport per session, found by `mcp-session-id`. */
function sdkV1Handler() {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return async (req: IncomingMessage, res: ServerResponse) => {
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      res.writeHead(400).end('expected an initialize request or an mcp-session-id');
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await sdkV1Server().connect(transport);
    await transport.handleRequest(req, res, body);
  };
}

const fino = mcpServer({ name: 'fino', version: '1.0.0', tools: [echo] });

async function serve(kind: string, transport: string): Promise<void> {
  if (transport === 'stdio') {
    if (kind === 'fino') fino.serveStdio();
    else serveStdio(sdkServer);
    return;
  }
  if (kind === 'fino') {
    console.log((await fino.listen()).url);
    return;
  }
  const handle = kind === 'sdk-v1' ? sdkV1Handler() : toNodeHandler(createMcpHandler(sdkServer));
  const server = createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
}

const [kind, transport] = process.argv.slice(2);
if (
  !['fino', 'sdk', 'sdk-v1'].includes(kind) ||
  !['stdio', 'http'].includes(transport) ||
  (kind === 'sdk-v1' && transport === 'stdio')
) {
  console.error('usage: servers.ts <fino|sdk|sdk-v1> <stdio|http> (sdk-v1: http only)');
  process.exit(2);
}
process.on('message', (message) =>
  message === 'exit' ? process.exit(0) : process.send?.(process.cpuUsage()),
);
await serve(kind, transport);
