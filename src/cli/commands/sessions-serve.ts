/**
 * `fino sessions serve`: the approval inbox (fino/ai/session `serveInbox`) over a
 * session database, until SIGINT or SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_SQLITE_PATH,
  type SessionAgent,
  type Store,
  serveInbox,
  session,
} from '../../ai/session/index.ts';
import { UsageError } from '../../task/index.ts';
import { type CommandIo, writeLine } from '../command.ts';

export const serveUsage = `Usage: fino sessions serve [--db <path-or-url>] [--port N] [--host H] [--token T] [--agent <file>]

Serves the approval inbox: a web page listing every pending approval and
suspension, to approve, reject or answer them, live.

Options:
  --db <path-or-url>  a SQLite file or a postgres:// URL
                      (default: $FINO_DATABASE_URL, else ${DEFAULT_SQLITE_PATH})
  --port N            the port (default 8377; 0 picks a free one)
  --host H            the address to bind (default 127.0.0.1); any other address
                      requires a token, and one is generated when --token is absent
  --token T           require this token (default: $FINO_INBOX_TOKEN); open the
                      printed address once, the browser keeps it in a cookie
  --agent <file>      a module exporting the agent: decisions continue the run in
                      this process; without it runs wait, ready, for a worker`;

const DEFAULT_PORT = 8377;
const VALUE_OPTIONS = ['--db', '--port', '--host', '--token', '--agent'];
const hint = 'Run "fino sessions serve --help" for usage.';
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** What `fino sessions` lends this subcommand: how it opens stores and loads agents. */
export interface ServeHelpers {
  openStore(db: string | undefined, io: CommandIo): Store;
  loadAgent(file: string, io: CommandIo): Promise<SessionAgent>;
}

function parseServeArgs(argv: string[]): Map<string, string> {
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.split(/=(.*)/s, 2);
    if (!VALUE_OPTIONS.includes(name)) {
      throw new UsageError(
        `unexpected argument ${arg}; expected ${VALUE_OPTIONS.join(', ')}`,
        hint,
      );
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`${name} needs a value`, hint);
    options.set(name, value);
  }
  return options;
}

const signalled = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

/**
 * Runs `fino sessions serve <argv>`: prints the inbox's address to stderr and serves
 * until `until` settles (SIGINT or SIGTERM by default).
 */
export async function serve(
  argv: string[],
  io: CommandIo,
  helpers: ServeHelpers,
  until: Promise<void> = signalled(),
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    writeLine(io.stdout, serveUsage);
    return 0;
  }
  const options = parseServeArgs(argv);
  const portText = options.get('--port') ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) {
    throw new UsageError(
      `--port: expected an integer from 0 to 65535, received "${portText}"`,
      hint,
    );
  }
  const host = options.get('--host') ?? '127.0.0.1';
  let token = options.get('--token') ?? (io.env.FINO_INBOX_TOKEN || undefined);
  if (token !== undefined && token.length < 8) {
    throw new UsageError(`--token: expected at least 8 characters, received ${token.length}`, hint);
  }
  if (token === undefined && !LOOPBACK.has(host)) token = randomBytes(24).toString('base64url');
  const agentFile = options.get('--agent');
  const agent = agentFile === undefined ? undefined : await helpers.loadAgent(agentFile, io);
  const store = helpers.openStore(options.get('--db'), io);
  try {
    const server = await serveInbox({ session: session({ store, agent }), port, host, token });
    const mode = agent ? 'decisions continue runs here' : 'decided runs wait for a worker';
    writeLine(io.stderr, `fino sessions serve: approval inbox at ${server.url} (${mode})`);
    await until;
    await server.close();
    return 0;
  } finally {
    await store.close();
  }
}
