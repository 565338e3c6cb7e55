/**
 * `fino mcp <file> [--http [host:]port] [--token T] [--approval MODE]`.
 */
import { basename, extname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { type ApprovalMode, mcpServer } from '../../ai/mcp/index.ts';
import { UsageError } from '../../task/index.ts';
import { asksForHelp, type Command, type CommandIo, writeLine } from '../command.ts';
import { loadTasks } from '../load-module.ts';
import { reportError } from '../report-error.ts';

const usage = `Usage: fino mcp <file> [--http [host:]port] [--token T] [--approval MODE]

Serves the tools and tasks <file> exports to MCP clients: over stdio by default (the
client starts this command), or over Streamable HTTP with --http.

  --http [host:]port  serve HTTP on host (default 127.0.0.1) and port (0: any free one);
                      the endpoint is http://host:port/mcp
  --token T           HTTP only: require "Authorization: Bearer T" (or FINO_MCP_TOKEN)
  --approval MODE     tools that need a human decision: elicit (default: ask the
                      client's user), client (trust the client's confirmation), deny

A startup line on stderr names the transport and the tools.`;

const hint = 'Run "fino mcp --help" for usage.';
const APPROVALS: readonly ApprovalMode[] = ['elicit', 'client', 'deny'];
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

interface McpArgs {
  file: string;
  http?: { host: string; port: number };
  token?: string;
  approval: ApprovalMode;
}

function parseArgs(argv: string[], env: CommandIo['env']): McpArgs {
  let file: string | undefined;
  let http: McpArgs['http'];
  let token = env.FINO_MCP_TOKEN || undefined;
  let approval: string = 'elicit';
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') ? splitFlag(argv[i]) : [argv[i], undefined];
    const value = () => {
      const given = inline ?? argv[++i];
      if (given === undefined) throw new UsageError(`${flag} is missing its value`, hint);
      return given;
    };
    if (flag === '--http') http = parseHostPort(value());
    else if (flag === '--token') token = value();
    else if (flag === '--approval') approval = value();
    else if (flag.startsWith('-')) {
      throw new UsageError(`unknown option ${flag}; expected --http, --token or --approval`, hint);
    } else if (file === undefined) file = flag;
    else throw new UsageError(`unexpected argument "${flag}"`, hint);
  }
  if (file === undefined) throw new UsageError('missing <file>', hint);
  if (!(APPROVALS as readonly string[]).includes(approval)) {
    throw new UsageError(
      `--approval: expected one of ${APPROVALS.join(', ')}, received "${approval}"`,
      hint,
    );
  }
  if (token !== undefined && http === undefined && argv.some((a) => a.startsWith('--token'))) {
    throw new UsageError(
      '--token applies to --http only (stdio has no requests to authorize)',
      hint,
    );
  }
  return { file, http, token: http ? token : undefined, approval: approval as ApprovalMode };
}

const splitFlag = (arg: string): [string, string | undefined] => {
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
};

function parseHostPort(text: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port > 65535) {
    throw new UsageError(
      `--http: expected [host:]port, like 3000 or 127.0.0.1:3000 or [::1]:3000, received "${text}"`,
      hint,
    );
  }
  return { host: (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
}

async function main(argv: string[], io: CommandIo): Promise<number> {
  if (asksForHelp(argv)) {
    writeLine(io.stdout, usage);
    return 0;
  }
  const args = parseArgs(argv, io.env);
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
  const http = await server.listen({ ...args.http, token: args.token });
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
export const mcp: Command = {
  name: 'mcp',
  usage,
  run: (argv, io) => main(argv, io).catch((error: unknown) => reportError(error, io)),
};
