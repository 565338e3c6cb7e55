/**
 * `fino sessions serve`: the approval inbox (fino/ai/session `serveInbox`) over a
 * session database, until SIGINT or SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_SQLITE_PATH,
  headerIdentity,
  type SessionAgent,
  type Store,
  serveInbox,
  session,
} from '../../ai/session/index.ts';
import { task, UsageError } from '../../task/index.ts';
import { v } from '../../validate/index.ts';
import { workflowRuns } from '../../workflow/index.ts';
import { type CommandIo, writeLine } from '../command.ts';
import { runCommandTask } from '../task-command.ts';
import { openWorkflowStore } from './workflows.ts';

const description = `The approval inbox in a browser.

A web page listing every pending approval and suspension, to approve, reject or
answer them, live.`;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

const serveInput = v.object({
  db: v
    .string()
    .optional()
    .describe(
      `a SQLite file (created when missing) or a postgres:// URL (default: $FINO_DATABASE_URL, else ${DEFAULT_SQLITE_PATH})`,
    ),
  port: v.integer().min(0).max(65_535).default(8377).describe('the port (0 picks a free one)'),
  host: v
    .string()
    .default('127.0.0.1')
    .describe(
      'the address to bind; any other than loopback requires a token, and one is generated when --token is absent',
    ),
  token: v
    .array(v.string())
    .optional()
    .describe(
      'require this token (default: $FINO_INBOX_TOKEN); open the printed address once, the browser stays logged in; repeat as --token name=secret, one per approver, to record who decided',
    ),
  identityHeader: v
    .string()
    .optional()
    .describe(
      'take who is signed in from this request header (e.g. X-Forwarded-User), recorded in the audit trail; only behind a proxy that sets it and drops the one clients send: anyone who reaches the port directly can send it',
    ),
  workflows: v
    .string()
    .optional()
    .describe(
      'a workflow database (SQLite file or postgres:// URL): its runs and pending decisions show in the inbox too',
    ),
  agent: v
    .string()
    .optional()
    .describe(
      'a module exporting the agent: decisions continue the run in this process; without it runs wait, ready, for a worker',
    ),
});

/** An approver's token on the command line: `name=secret`. */
const APPROVER_TOKEN = /^([A-Za-z0-9._@-]{1,100})=(.*)$/s;

/**
 * The inbox's access from `--token` (repeatable) or `$FINO_INBOX_TOKEN`: one shared
 * token, or one per approver (`--token ana=secret --token bo=other`), not both.
 */
function accessOf(
  given: string[],
  fromEnv: string | undefined,
): { token?: string; tokens?: Record<string, string> } {
  const values = given.length > 0 ? given : fromEnv === undefined ? [] : [fromEnv];
  const named = values.map((value) => APPROVER_TOKEN.exec(value));
  const checkLength = (what: string, secret: string) => {
    if (secret.length < 8) {
      throw new UsageError(`${what}: expected at least 8 characters, received ${secret.length}`);
    }
  };
  if (values.length === 1 && named[0] === null) {
    checkLength('--token', values[0]);
    return { token: values[0] };
  }
  if (values.length === 0) return {};
  const tokens: Record<string, string> = Object.create(null);
  for (const [i, match] of named.entries()) {
    if (match === null) {
      throw new UsageError(
        `--token: expected name=secret for each of several tokens, received ${JSON.stringify(values[i].slice(0, 2))}…`,
        'Give one shared --token, or one --token name=secret per approver.',
      );
    }
    const [, name, secret] = match;
    if (name in tokens) throw new UsageError(`--token: approver "${name}" is given twice`);
    checkLength(`--token ${name}=…`, secret);
    tokens[name] = secret;
  }
  return { tokens: { ...tokens } };
}

/** `--identity-header`'s `identify` hook; a usage error for a bad name or with approvers' tokens. */
function identityOf(header: string | undefined, tokens: Record<string, string> | undefined) {
  if (header === undefined) return undefined;
  if (tokens !== undefined) {
    throw new UsageError(
      '--identity-header: expected it without a token per approver (--token name=secret): both would name who decides',
    );
  }
  try {
    return headerIdentity(header);
  } catch {
    throw new UsageError(
      `--identity-header: expected an HTTP header name such as X-Forwarded-User, received ${JSON.stringify(header.slice(0, 60))}`,
    );
  }
}

/** What `fino sessions` lends this subcommand: how it opens stores and loads agents. */
export interface ServeHelpers {
  /** With `create`, a missing SQLite file is created (and the creation reported). */
  openStore(db: string | undefined, io: CommandIo, create?: boolean): Store;
  loadAgent(file: string, io: CommandIo): Promise<SessionAgent>;
}

const signalled = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

/**
 * `fino sessions serve` as a task: prints the inbox's address to stderr and serves until
 * `until()` settles (SIGINT or SIGTERM by default).
 */
export function serveTask(
  io: CommandIo,
  helpers: ServeHelpers,
  until: () => Promise<void> = signalled,
) {
  return task({
    name: 'serve',
    description,
    inputSchema: serveInput,
    run: async (given) => {
      const access = accessOf(given.token ?? [], io.env.FINO_INBOX_TOKEN || undefined);
      let token = access.token;
      const { tokens } = access;
      const identify = identityOf(given.identityHeader, tokens);
      if (token === undefined && tokens === undefined && !LOOPBACK.has(given.host)) {
        token = randomBytes(24).toString('base64url');
      }
      const agent =
        given.agent === undefined ? undefined : await helpers.loadAgent(given.agent, io);
      // Opened first: a missing workflow database is a usage error before anything is created.
      const workflowStore =
        given.workflows === undefined ? undefined : openWorkflowStore(given.workflows, io);
      const store = helpers.openStore(given.db, io, true);
      try {
        const server = await serveInbox({
          session: session({ store, agent }),
          ...(workflowStore && { workflows: workflowRuns(workflowStore) }),
          port: given.port,
          host: given.host,
          token,
          tokens,
          identify,
        });
        const mode = agent ? 'decisions continue runs here' : 'decided runs wait for a worker';
        writeLine(io.stderr, `fino sessions serve: approval inbox at ${server.url} (${mode})`);
        for (const [name, secret] of Object.entries(tokens ?? {})) {
          writeLine(io.stderr, `  ${name}: ${server.url}?token=${encodeURIComponent(secret)}`);
        }
        await until();
        await server.close();
        return 0;
      } finally {
        await store.close();
        await workflowStore?.close();
      }
    },
  });
}

/**
 * Runs `fino sessions serve <argv>` (see {@link serveTask}); resolves to the exit code,
 * printing errors in the one format.
 */
export function serve(
  argv: string[],
  io: CommandIo,
  helpers: ServeHelpers,
  until: Promise<void> = signalled(),
): Promise<number> {
  return runCommandTask(
    serveTask(io, helpers, () => until),
    argv,
    io,
    'fino sessions serve',
  );
}
