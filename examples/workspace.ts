/**
 * The main job: serves the workspace tools (list, read, search, write, remove files in
 * one folder) over MCP Streamable HTTP on 127.0.0.1, and prints the URL and the
 * configuration snippet to paste into an MCP client.
 *
 *     npm start                                   # demo folder .fino/workspace, port 3000
 *     npm start -- --dir ~/notes --port 4000 --token s3cret
 *     npm start -- --help
 *
 * Errors print like every fino command: `fino: <message>` and a hint line, exit code 2
 * for a wrong command line, 1 when serving fails (a busy port); `--verbose` or
 * `FINO_DEBUG=1` adds the stack trace.
 */
import { parseArgs } from 'node:util';
import { mcpServer } from '../src/ai/mcp/index.ts';
import { EXIT, listenProblem, processIo, reportError, reportProblem } from '../src/cli/index.ts';
import { configSnippets } from './workspace/config-snippet.ts';
import { workspaceFolder } from './workspace/folder.ts';
import { workspaceTools } from './workspace/tools.ts';

const USAGE = `Usage: npm start -- [--dir <folder>] [--host <host>] [--port <n>] [--token <t>]
                     [--approval elicit|client|deny]

Serves the workspace tools (list, read, search, write and remove files in one folder)
over MCP Streamable HTTP, and prints the URL and the snippet to paste into a client.

  --dir <folder>  the folder to serve (or FINO_WORKSPACE; default: a demo folder
                  .fino/workspace, created with a few files)
  --host <host>   the address to listen on (default 127.0.0.1)
  --port <n>      the port (or PORT; default 3000; 0 picks a free one)
  --token <t>     require "Authorization: Bearer <t>" (or FINO_MCP_TOKEN)
  --approval <m>  how remove_file's approval is asked: elicit (default: the client
                  asks its user), client (trust the client's own confirmation, for
                  clients that cannot ask, such as the MCP Inspector) or deny
  --verbose       print stack traces with errors (or FINO_DEBUG=1)
  -h, --help      show this help`;

const HINT = 'Run "npm start -- --help" for usage.';
const io = processIo();

/** The options, or the exit code after printing what was wrong. */
function options() {
  try {
    return parseArgs({
      options: {
        dir: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: process.env.PORT || '3000' },
        token: { type: 'string', default: process.env.FINO_MCP_TOKEN || undefined },
        approval: { type: 'string', default: 'elicit' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    // node:util parseArgs: "Unknown option '--x'…", "Option '--dir <value>' argument missing"…
    return reportProblem(io, (error as Error).message, HINT, EXIT.usage);
  }
}

async function serve(): Promise<number> {
  const values = options();
  if (typeof values === 'number') return values;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  io.verbose = values.verbose;
  const port = Number(values.port);
  if (values.port === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    return reportProblem(
      io,
      `--port: expected a port number from 0 to 65535, received "${values.port}"`,
      HINT,
      EXIT.usage,
    );
  }
  if (values.dir === '') return reportProblem(io, '--dir needs a folder', HINT, EXIT.usage);
  const approval = values.approval;
  if (approval !== 'elicit' && approval !== 'client' && approval !== 'deny') {
    return reportProblem(
      io,
      `--approval: expected one of elicit, client, deny, received "${approval}"`,
      HINT,
      EXIT.usage,
    );
  }
  try {
    const root = await workspaceFolder(values.dir);
    const server = mcpServer({
      name: 'workspace',
      version: '1.0.0',
      instructions: `Tools over the files of ${root}. Paths are relative to that folder.`,
      tools: await workspaceTools(root),
      approval,
    });
    const http = await server
      .listen({ host: values.host, port, token: values.token })
      .catch((error: unknown) => {
        throw listenProblem(error, (other) => `--port ${other}`);
      });

    console.log(`Serving the workspace ${root}`);
    console.log(`MCP endpoint (Streamable HTTP): ${http.url}`);
    console.log(`Tools: ${server.tools.map((t) => t.name).join(', ')}\n`);
    console.log(configSnippets('workspace', http.url, values.token));
    console.log('\nPress Ctrl+C to stop.');

    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await http.close();
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io, HINT);
  }
}

process.exitCode = await serve();
