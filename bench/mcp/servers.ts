/**
 * The two servers the benchmark compares, serving the same `echo` tool: fino's
 * `mcpServer`, and the SDK's own `McpServer` with `registerTool` (its documented idiom).
 * Run as a script (`servers.ts <fino|sdk> <stdio|http>`) it serves over that transport;
 * for HTTP it prints the endpoint's URL on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
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
  const handle = toNodeHandler(createMcpHandler(sdkServer));
  const server = createServer((req, res) => void handle(req, res));
  server.listen(0, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
}

const [kind, transport] = process.argv.slice(2);
if (!['fino', 'sdk'].includes(kind) || !['stdio', 'http'].includes(transport)) {
  console.error('usage: servers.ts <fino|sdk> <stdio|http>');
  process.exit(2);
}
await serve(kind, transport);
