/**
 * `fino mcp <file> [--http [host:]port] [--token T] [--approval MODE]`.
 */
import { basename, extname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { type ApprovalMode, mcpServer } from '../../ai/mcp/index.ts';
import { task, UsageError } from '../../task/index.ts';
import { type Infer, v } from '../../validate/index.ts';
import { type CommandIo, writeLine } from '../command.ts';
import { listenProblem } from '../listen-problem.ts';
import { loadTasks } from '../load-module.ts';
import { taskCommand } from '../task-command.ts';

const description = `Serves the tools and tasks <file> exports to MCP clients: over stdio by default (the
client starts this command), or over Streamable HTTP with --http at
http://host:port/mcp. A startup line on stderr names the transport and the tools.`;

const APPROVALS = ['elicit', 'client', 'deny'] as const satisfies readonly ApprovalMode[];
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

const mcpInput = v.object({
  file: v.string().describe('a JavaScript or TypeScript module exporting tools or tasks'),
  http: v
    .string()
    .optional()
    .describe(
      '[host:]port: serve Streamable HTTP on host (default 127.0.0.1) and port (0: any free one)',
    ),
  token: v
    .string()
    .optional()
    .describe('HTTP only: require "Authorization: Bearer T" (default: $FINO_MCP_TOKEN)'),
  approval: v
    .enum(APPROVALS)
    .default('elicit')
    .describe(
      "tools that need a human decision: ask the client's user (elicit), trust the client's confirmation (client), or deny",
    ),
});

/** What `fino mcp` was asked for, with `--http` parsed. */
interface McpArgs {
  file: string;
  http?: { host: string; port: number };
  token?: string;
  approval: ApprovalMode;
}

/** Checks what the schema cannot: `--http`'s form, and that `--token` comes with `--http`. */
function mcpArgs(given: Infer<typeof mcpInput>, env: CommandIo['env']): McpArgs {
  if (given.token !== undefined && given.http === undefined) {
    throw new UsageError('--token applies to --http only (stdio has no requests to authorize)');
  }
  const http = given.http === undefined ? undefined : parseHostPort(given.http);
  const token = http ? (given.token ?? (env.FINO_MCP_TOKEN || undefined)) : undefined;
  return { file: given.file, http, token, approval: given.approval };
}

function parseHostPort(text: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port > 65535) {
    throw new UsageError(
      `--http: expected [host:]port, like 3000 or 127.0.0.1:3000 or [::1]:3000, received "${text}"`,
    );
  }
  return { host: (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
}

async function serve(args: McpArgs, io: CommandIo): Promise<number> {
  const tools = await loadTasks(args.file, io);
  const server = mcpServer({
    name: basename(args.file, extname(args.file)),
    version: '1.0.0',
    tools,
    approval: args.approval,
  });
  const names = `${tools.length} tool${tools.length === 1 ? '' : 's'} (${tools.map((t) => t.name).join(', ')})`;
  if (args.http === undefined) {
    const stdio = server.serveStdio({ stdin: io.stdin as Readable, stdout: io.stdout as Writable });
    writeLine(io.stderr, `fino mcp: serving ${names} over stdio`);
    await stdio.closed;
    await stdio.close();
    return 0;
  }
  const { host } = args.http;
  const http = await server.listen({ ...args.http, token: args.token }).catch((error: unknown) => {
    const bracketed = host.includes(':') ? `[${host}]` : host;
    throw listenProblem(error, (port) => `--http ${bracketed}:${port}`);
  });
  const auth = args.token === undefined ? '' : ' (bearer token required)';
  writeLine(io.stderr, `fino mcp: serving ${names} over Streamable HTTP at ${http.url}${auth}`);
  if (!LOOPBACK.has(args.http.host) && args.token === undefined) {
    writeLine(
      io.stderr,
      `fino mcp: warning: ${args.http.host} is reachable from other machines and no --token is set; anyone who can reach it can call these tools`,
    );
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await http.close();
  return 0;
}

/** `fino mcp`: serves a module's tools over MCP (stdio, or Streamable HTTP). */
export const mcp = taskCommand('mcp', (io) =>
  task({
    name: 'mcp',
    description,
    inputSchema: mcpInput,
    cli: { positionals: ['file'] },
    run: (given) => serve(mcpArgs(given, io.env), io),
  }),
);
