/**
 * `fino sessions list|show|approve|reject|resume|cancel|serve`: inspect durable runs and
 * decide their pending calls from a terminal. Each subcommand is a child task with its
 * own schema; `fino sessions <subcommand> --help` prints its help.
 */
import { existsSync } from 'node:fs';
import { describeUsage } from '../../ai/model/index.ts';
import {
  DEFAULT_SQLITE_PATH,
  type PendingRef,
  postgresStore,
  RUN_STATUSES,
  type RunStatus,
  runThread,
  type Session,
  type SessionAgent,
  type SessionPendingCall,
  type SessionRun,
  type Store,
  session,
  sqliteStore,
} from '../../ai/session/index.ts';
import { shellQuote } from '../../internal/shell-quote.ts';
import { UsageError } from '../../task/index.ts';
import { v } from '../../validate/index.ts';
import { type CommandIo, writeLine } from '../command.ts';
import { databaseOption, databaseTarget } from '../database-option.ts';
import { EXIT } from '../exit-codes.ts';
import { importUserModule } from '../load-module.ts';
import { reportProblem } from '../report-error.ts';
import { type Output, parentCommand, print, subcommand } from '../subcommand.ts';
import type { CommandTask } from '../task-command.ts';
import { serveTask } from './sessions-serve.ts';
import { SHOWN_THREAD_MESSAGES, threadLines } from './thread-lines.ts';

/**
 * The store named by `--db`, `$FINO_DATABASE_URL`, or the default SQLite file. A missing
 * SQLite file is refused (a typo would show nothing), unless `create` (the inbox, which
 * waits for runs to come: decision 128), which creates it and says so on stderr.
 */
function openStore(db: string | undefined, io: CommandIo, create = false): Store {
  const target = databaseTarget(db, io, DEFAULT_SQLITE_PATH);
  if ('url' in target) return postgresStore(target.url);
  const { path } = target;
  if (existsSync(path)) return sqliteStore(path);
  if (!create) {
    throw new UsageError(
      `no session database at ${path}`,
      'Pass --db <file or postgres:// URL>, or run "fino sessions serve", which creates it.',
    );
  }
  const store = sqliteStore(path);
  writeLine(
    io.stderr,
    `fino sessions serve: created an empty session database at ${path}; runs appear when a session({ store: sqliteStore(${JSON.stringify(target.given)}) }) records them`,
  );
  return store;
}

/** The agent a module exports: its default export, or the export named `agent`. */
async function loadAgent(file: string, io: CommandIo): Promise<SessionAgent> {
  const module = await importUserModule(file, io);
  const isAgent = (value: unknown): value is SessionAgent =>
    typeof (value as SessionAgent | null)?.generate === 'function' &&
    typeof (value as SessionAgent).resume === 'function';
  const found = [module.default, module.agent].find(isAgent);
  if (!found) {
    throw new UsageError(
      `${file} exports no agent: export one as default or as "agent" (an agent from fino/ai/agent)`,
    );
  }
  return found;
}

/**
 * The command that decides a pending call, runnable as printed (with `--db` when the
 * listing named one): `approve` for an approval, `resume` with an answer for a suspension
 * (`<JSON>` stands for the answer, e.g. '"M"').
 */
function decideCommand(run: SessionRun, call: SessionPendingCall, db: string | undefined) {
  const where = db === undefined ? '' : ` --db ${shellQuote(db)}`;
  const ids = `${shellQuote(run.runId)} ${shellQuote(call.toolCallId)}`;
  return call.kind === 'suspend'
    ? `fino sessions resume ${ids} --value <JSON>${where}`
    : `fino sessions approve ${ids}${where}`;
}

const describeRun = (run: SessionRun, db?: string): string[] => {
  const thread = run.threadId ? `  thread=${run.threadId}` : '';
  const lines = [`${run.runId}  ${run.status}  ${run.updatedAt}${thread}`];
  if (run.status === 'done') lines.push(`  text: ${run.text}`);
  if (run.status === 'error') lines.push(`  error${run.code ? ` ${run.code}` : ''}: ${run.error}`);
  if (run.status === 'running')
    lines.push(`  worker=${run.worker}  lease until ${run.leaseExpiresAt}`);
  if (run.status === 'running' && run.progress) {
    const { progress, total, message, toolName, toolCallId, at } = run.progress;
    const note = message === undefined ? '' : `  ${JSON.stringify(message)}`;
    lines.push(
      `  progress ${progress}${total === undefined ? '' : `/${total}`}  tool=${toolName} ${toolCallId}  at ${at}${note}`,
    );
  }
  if (run.status === 'suspended') {
    for (const p of run.pending) {
      const risk = p.risk ? `  risk=${p.risk}` : '';
      const reason =
        p.kind === 'suspend' ? `  reason=${JSON.stringify(p.reason ?? 'Suspended')}` : '';
      lines.push(`  pending ${p.kind} ${p.toolCallId}  tool=${p.toolName}${risk}${reason}`);
      lines.push(`    args=${JSON.stringify(p.args)}`);
      if (p.payload !== undefined) lines.push(`    payload=${JSON.stringify(p.payload)}`);
      // Stores keep only a hash of each token (decision 062): it is printed only in the
      // result that just suspended the run; otherwise the call is named by run and id.
      if (p.token !== undefined) lines.push(`    token=${p.token}`);
      else lines.push(`    decide: ${decideCommand(run, p, db)}`);
    }
  }
  return lines;
};

const withoutState = ({ state: _state, ...run }: SessionRun) => run;

/** `fino sessions show`: the run, its usage and each step's, its audit trail, then its thread. */
const showRun = (
  run: SessionRun,
  db: string | undefined,
  thread: Parameters<typeof threadLines>[0] | undefined,
): string[] => [
  ...describeRun(run, db),
  ...(run.state?.usage ? [`  usage ${describeUsage(run.state.usage)}`] : []),
  ...(Array.isArray(run.state?.steps) ? run.state.steps : []).map(
    (step, i) =>
      `  step ${i}${step?.toolCalls?.length ? ` tools=${step.toolCalls.map((c) => c.name).join(',')}` : ''}  ${step?.usage ? describeUsage(step.usage) : ''}`,
  ),
  ...(run.audit ?? []).map(
    (a) =>
      `  audit ${a.at} ${a.action}${a.toolCallId ? ` ${a.toolCallId}` : ''}${a.by ? ` by ${a.by}` : ''}${a.note ? `: ${a.note}` : ''}`,
  ),
  ...(thread ? threadLines(thread) : []),
];

const db = databaseOption(DEFAULT_SQLITE_PATH);
const agent = v
  .string()
  .optional()
  .describe(
    'a module exporting the agent (default export, or "agent"): the run continues in this process; without it the decision is recorded and the run waits, ready, for a worker',
  );
const by = v.string().optional().describe('who decides, for the audit trail');
const note = v.string().optional().describe('a note for the audit trail');
const runId = v.string().describe('the run id (as "list" prints it)');
const ref = v
  .string()
  .describe(
    "the pending call's token (shown once, when the run suspends), or its run id followed by [tool-call-id]",
  );
const toolCallId = v
  .string()
  .optional()
  .describe('the pending call\'s id, after a run id (as "list" and "show" print it)');
const statuses = RUN_STATUSES as readonly [RunStatus, ...RunStatus[]];

/** Opens the store (and loads the agent, with `--agent`), runs `act`, and closes the store. */
async function withSession(
  given: { db?: string; agent?: string },
  io: CommandIo,
  act: (runs: Session, hasAgent: boolean) => Promise<number>,
): Promise<number> {
  const loaded = given.agent === undefined ? undefined : await loadAgent(given.agent, io);
  const store = openStore(given.db, io);
  try {
    return await act(session({ store, agent: loaded }), loaded !== undefined);
  } finally {
    await store.close();
  }
}

/** `--by` and `--note`: who decided, and why, for the audit trail. */
const actor = (given: { by?: string; note?: string }) => ({ by: given.by, note: given.note });

/** A decided run; without an agent it waits, ready, for a worker. */
const decided = (out: Output, run: SessionRun, hasAgent: boolean): number => {
  const waiting =
    run.status === 'ready' && !hasAgent
      ? ['  recorded; the run is ready for a worker (or pass --agent to continue it here)']
      : [];
  return print(out, withoutState(run), () => [...describeRun(run), ...waiting]);
};

/** `fino sessions list`: runs, with their pending calls and how to decide them. */
const listCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'list',
    description: 'Runs, oldest first, with their pending calls',
    inputSchema: v.object({
      db,
      status: v.enum(statuses).optional().describe('only runs with this status'),
      thread: v.string().optional().describe('only runs of this thread'),
    }),
    positionals: [],
    run: (given, out) =>
      withSession(given, io, async (runs) => {
        const list = await runs.list({ status: given.status, threadId: given.thread });
        const views = list.map((r) => (r.status === 'corrupt' ? r : withoutState(r)));
        return print(out, views, () =>
          list.length === 0
            ? ['no runs']
            : list.flatMap((r) =>
                r.status === 'corrupt'
                  ? [`${r.runId}  corrupt`, `  error: ${r.error}`]
                  : describeRun(r, given.db),
              ),
        );
      }),
  });

/** `fino sessions show`: one run, its usage, audit trail and thread. */
const showCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'show',
    description: 'One run: status, pending calls, audit trail',
    inputSchema: v.object({ runId, db }),
    positionals: ['runId'],
    run: (given, out) =>
      withSession(given, io, async (runs) => {
        const run = await runs.get(given.runId);
        if (!run) {
          return reportProblem(
            io,
            `no run with id "${given.runId}"`,
            'Run "fino sessions list" for the run ids.',
            EXIT.failure,
          );
        }
        const thread = await runThread(runs, run, { limit: SHOWN_THREAD_MESSAGES });
        return print(out, thread ? { ...run, thread } : run, () => showRun(run, given.db, thread));
      }),
  });

/** What every decision subcommand is given: the pending call, where, with what, who and why. */
interface DecisionInput {
  ref: string;
  toolCallId?: string;
  db?: string;
  agent?: string;
  by?: string;
  note?: string;
}

const DECISION_POSITIONALS = ['ref', 'toolCallId'];

/** A decision subcommand's flags: the pending call, then `extra`, then where, with what, who and why. */
const decisionInput = <Extra extends Parameters<typeof v.object>[0]>(extra: Extra) =>
  v.object({ ref, toolCallId, ...extra, db, agent, by, note });

/** Decides the pending call `given` names with `decide` and prints the run. */
const decideCall = (
  io: CommandIo,
  given: DecisionInput,
  out: Output,
  decide: (
    runs: Session,
    ref: PendingRef,
    actor: { by?: string; note?: string },
  ) => Promise<SessionRun>,
) =>
  withSession(given, io, async (runs, hasAgent) => {
    const ref: PendingRef =
      given.toolCallId === undefined
        ? given.ref
        : { runId: given.ref, toolCallId: given.toolCallId };
    return decided(out, await decide(runs, ref, actor(given)), hasAgent);
  });

/** `fino sessions approve|reject|resume`: a pending call decided, once. */
const decideCommands = (io: CommandIo): CommandTask[] => [
  subcommand(io, {
    name: 'approve',
    description: 'Approve a pending call',
    inputSchema: decisionInput({}),
    positionals: DECISION_POSITIONALS,
    run: (given, out) => decideCall(io, given, out, (runs, at, who) => runs.approve(at, who)),
  }),
  subcommand(io, {
    name: 'reject',
    description: 'Reject a pending call; the model reads the reason',
    inputSchema: decisionInput({
      reason: v.string().min(1).describe('why, for the model to read'),
    }),
    positionals: DECISION_POSITIONALS,
    run: (given, out) =>
      decideCall(io, given, out, (runs, at, who) => runs.reject(at, given.reason, who)),
  }),
  subcommand(io, {
    name: 'resume',
    description: 'Answer a suspended call with a value',
    inputSchema: decisionInput({
      value: v.any().describe('the answer, as JSON (quote strings: \'"M"\')'),
    }),
    positionals: DECISION_POSITIONALS,
    run: (given, out) =>
      decideCall(io, given, out, (runs, at, who) => runs.resume(at, given.value, who)),
  }),
];

/** `fino sessions cancel`: an unfinished run cancelled. */
const cancelCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'cancel',
    description: 'Cancel an unfinished run',
    inputSchema: v.object({ runId, db, by, note }),
    positionals: ['runId'],
    run: (given, out) =>
      withSession(given, io, async (runs) => {
        const run = await runs.cancel(given.runId, actor(given));
        return print(out, withoutState(run), () => describeRun(run));
      }),
  });

/** `fino sessions`: lists durable runs and approves, rejects or resumes their pending calls. */
export const sessions = parentCommand(
  'sessions',
  'Inspects durable runs (fino/ai/session) and decides their pending calls.',
  (io) => [
    listCommand(io),
    showCommand(io),
    ...decideCommands(io),
    cancelCommand(io),
    serveTask(io, { openStore, loadAgent }),
  ],
);
