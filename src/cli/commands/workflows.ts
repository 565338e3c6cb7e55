/**
 * `fino workflows list|show|start|signal|cancel|approve|reject|resume|history|retry|fork` (the last two in `workflows-repair.ts`) and `query|update`
 * (in `workflows-requests.ts`): inspect durable
 * workflow runs and act on them from a terminal. Each subcommand is a child task with its
 * own schema; `fino workflows <subcommand> --help` prints its help. Only `start` needs
 * the workflows' code (`--module`); the others work on the store alone.
 */
import { existsSync } from 'node:fs';
import type { Decision } from '../../ai/agent/index.ts';
import { shellQuote } from '../../internal/shell-quote.ts';
import { UsageError } from '../../task/index.ts';
import { v } from '../../validate/index.ts';
import {
  type AnyWorkflow,
  DEFAULT_WORKFLOW_DB,
  type DecisionRef,
  postgresWorkflowStore,
  sqliteWorkflowStore,
  WORKFLOW_STATUSES,
  type WorkflowRun,
  type WorkflowStore,
  workflowRuns,
} from '../../workflow/index.ts';
import type { CommandIo } from '../command.ts';
import { databaseOption, databaseTarget } from '../database-option.ts';
import { importUserModule } from '../load-module.ts';
import { type Output, parentCommand, print, subcommand } from '../subcommand.ts';
import type { CommandTask } from '../task-command.ts';
import { byFlag, noteFlag, runIdArgument } from './workflow-flags.ts';
import { historyCommand } from './workflows-history.ts';
import { repairCommands } from './workflows-repair.ts';
import { queryCommand, updateCommand } from './workflows-requests.ts';
import { schedulesCommand } from './workflows-schedules.ts';

/** The store named by `--db`, `$FINO_DATABASE_URL`, or the default SQLite file. */
export function openWorkflowStore(
  db: string | undefined,
  io: CommandIo,
  create = false,
): WorkflowStore {
  const target = databaseTarget(db, io, DEFAULT_WORKFLOW_DB);
  if ('url' in target) return postgresWorkflowStore(target.url);
  if (!create && !existsSync(target.path)) {
    throw new UsageError(
      `no workflow database at ${target.path}`,
      'Pass --db <file or postgres:// URL>.',
    );
  }
  return sqliteWorkflowStore(target.path);
}

/** The workflow `id` among a module's exports. */
async function loadWorkflow(file: string, id: string, io: CommandIo): Promise<AnyWorkflow> {
  const module = await importUserModule(file, io);
  const isWorkflow = (value: unknown): value is AnyWorkflow =>
    typeof (value as AnyWorkflow | null)?.start === 'function' &&
    typeof (value as AnyWorkflow).id === 'string';
  const workflows = Object.values(module).filter(isWorkflow);
  const found = workflows.find((w) => w.id === id);
  if (!found) {
    throw new UsageError(
      `${file} exports no workflow "${id}"; it exports ${workflows.map((w) => `"${w.id}"`).join(', ') || 'none'}`,
    );
  }
  return found;
}

const describeRun = (run: WorkflowRun): string[] => {
  const lines = [
    `${run.runId}  ${run.workflowId}  ${run.status}  ${run.updatedAt}${run.key ? `  key=${run.key}` : ''}`,
  ];
  if (run.status === 'done') lines.push(`  output: ${JSON.stringify(run.output)}`);
  if (run.error)
    lines.push(`  error: ${run.error.code ? `${run.error.code}: ` : ''}${run.error.message}`);
  if (run.corrupt) lines.push(`  unreadable: ${run.corrupt}`);
  if (run.continuedTo) lines.push(`  continued as new in run ${run.continuedTo}`);
  if (run.worker) lines.push(`  worker=${run.worker}  lease until ${run.leaseExpiresAt}`);
  if (run.cancelRequested && run.status !== 'cancelled') lines.push('  cancellation requested');
  if (run.forkedFrom)
    lines.push(`  forked from ${run.forkedFrom.runId} at "${run.forkedFrom.fromStep}"`);
  const on = run.waitingOn;
  if (on) {
    if (on.timer) lines.push(`  waits: timer at ${on.timer}`);
    for (const name of on.signals) lines.push(`  waits: signal "${name}"`);
    for (const child of on.children ?? []) lines.push(`  waits: child run ${child}`);
  }
  for (const p of run.pending ?? []) {
    const reason =
      p.kind === 'suspend' ? `  reason=${JSON.stringify(p.reason ?? 'Suspended')}` : '';
    lines.push(
      `  pending ${p.kind} ${p.decisionId}  tool=${p.toolName}${p.risk ? `  risk=${p.risk}` : ''}${reason}`,
    );
    lines.push(`    args=${JSON.stringify(p.args)}`);
    lines.push(
      `    decide: fino workflows approve ${shellQuote(run.runId)} ${shellQuote(p.decisionId)}`,
    );
  }
  for (const a of run.audit ?? []) {
    lines.push(
      `  audit ${a.at} ${a.action}${a.decisionId ? ` ${a.decisionId}` : ''}${a.by ? ` by ${a.by}` : ''}${a.note ? `: ${a.note}` : ''}`,
    );
  }
  return lines;
};

const db = databaseOption(DEFAULT_WORKFLOW_DB);
const runId = runIdArgument;
const by = byFlag;
const note = noteFlag;
const ref = v
  .string()
  .describe("the decision's token (handed out once), or the run id followed by [decision-id]");
const decisionId = v
  .string()
  .optional()
  .describe('the pending decision\'s id, after a run id (as "show" prints it)');

/** Opens the store, runs `act`, and closes the store. */
async function withStore<T>(
  given: { db?: string },
  io: CommandIo,
  act: (store: WorkflowStore) => Promise<T>,
  create = false,
): Promise<T> {
  const store = openWorkflowStore(given.db, io, create);
  try {
    return await act(store);
  } finally {
    await store.close();
  }
}

/** `fino workflows list`: runs of every workflow, or of one, or with one status. */
const listCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'list',
    description: 'Runs of every workflow, oldest first',
    inputSchema: v.object({
      db,
      status: v.enum(WORKFLOW_STATUSES).optional().describe('only runs with this status'),
      workflow: v.string().optional().describe('only runs of this workflow id'),
    }),
    positionals: [],
    run: (given, out) =>
      withStore(given, io, async (store) => {
        const runs = await workflowRuns(store).list({
          ...(given.status ? { status: given.status } : {}),
          ...(given.workflow ? { workflowId: given.workflow } : {}),
        });
        return print(out, runs, () =>
          runs.length === 0 ? ['no runs'] : runs.flatMap(describeRun),
        );
      }),
  });

/** `fino workflows show`: one run, then its history one checkpoint a line. */
const showCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'show',
    description: 'One run: status, what it waits on, pending decisions, audit trail and history',
    inputSchema: v.object({ runId, db }),
    positionals: ['runId'],
    run: (given, out) =>
      withStore(given, io, async (store) => {
        const runs = workflowRuns(store);
        const run = await runs.get(given.runId);
        let unreadable: string | undefined;
        const history = await runs.history(given.runId).catch((error: unknown) => {
          if ((error as { code?: unknown }).code !== 'CORRUPT_RUN') throw error;
          unreadable = (error as Error).message; // the run is shown without its history
          return [];
        });
        return print(out, { ...run, history, ...(unreadable && { unreadable }) }, () => [
          ...describeRun(run),
          ...(unreadable ? [`  history unreadable: ${unreadable}`] : []),
          ...history.map(
            (e) =>
              `  ${e.startedAt} ${e.kind} ${e.id} ${e.state}${e.endedAt ? ` (${Date.parse(e.endedAt) - Date.parse(e.startedAt)} ms)` : ''}${e.error ? `  error: ${e.error.message}` : ''}${e.corrupt ? `  unreadable: ${e.corrupt}` : ''}`,
          ),
        ]);
      }),
  });

/** `fino workflows start`: a run of a workflow a module exports, in a store made when missing. */
const startCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'start',
    description: 'Start a run of a workflow a module exports (a worker drives it)',
    inputSchema: v.object({
      module: v.string().describe('the module exporting the workflow'),
      workflow: v.string().describe('the workflow id'),
      input: v.any().optional().describe('the input, as JSON'),
      key: v.string().optional().describe('an idempotency key: the same key starts one run'),
      db,
    }),
    positionals: ['module', 'workflow'],
    run: async (given, out) => {
      const definition = await loadWorkflow(given.module, given.workflow, io);
      return withStore(
        given,
        io,
        async (store) => {
          const started = await definition.start(given.input, {
            store,
            ...(given.key ? { key: given.key } : {}),
          });
          return print(out, started, () => [
            `${started.runId}  ${started.created ? 'started' : 'already started (same key)'}`,
          ]);
        },
        true,
      );
    },
  });

/** `fino workflows signal`: a signal queued for a run. */
const signalCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'signal',
    description: 'Send a signal to a run',
    inputSchema: v.object({
      runId,
      name: v.string().describe('the signal name'),
      payload: v.any().optional().describe('the payload, as JSON'),
      db,
    }),
    positionals: ['runId', 'name'],
    run: (given, out) =>
      withStore(given, io, async (store) => {
        await workflowRuns(store)
          .signal(given.runId, given.name, given.payload)
          .catch((error: unknown) => {
            // A name the run does not take is a wrong argument of the command line (exit 2).
            if ((error as { code?: unknown }).code !== 'UNKNOWN_SIGNAL') throw error;
            throw new UsageError((error as Error).message, 'Pass a signal name the run takes.');
          });
        return print(out, { runId: given.runId, signal: given.name }, () => [
          `signal "${given.name}" queued for ${given.runId}`,
        ]);
      }),
  });

/** `fino workflows cancel`: the run unwinds through its finally blocks. */
const cancelCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'cancel',
    description: 'Cancel a run: it unwinds through its finally blocks',
    inputSchema: v.object({ runId, db, by, note }),
    positionals: ['runId'],
    run: (given, out) =>
      withStore(given, io, async (store) => {
        const run = await workflowRuns(store).cancel(given.runId, {
          by: given.by,
          note: given.note,
        });
        return print(out, run, () => describeRun(run));
      }),
  });

/** What every decision subcommand is given: the decision, where, who and why. */
interface DecisionInput {
  ref: string;
  decisionId?: string;
  db?: string;
  by?: string;
  note?: string;
}

const DECISION_POSITIONALS = ['ref', 'decisionId'];

/** A decision subcommand's flags: the pending decision, then `extra`, then where, who and why. */
const decisionInput = <Extra extends Parameters<typeof v.object>[0]>(extra: Extra) =>
  v.object({ ref, decisionId, ...extra, db, by, note });

/**
 * Records `decision` on the pending decision `given` names and prints `what` happened;
 * the run waits for a worker.
 */
const recordDecision = (
  io: CommandIo,
  given: DecisionInput,
  out: Output,
  decision: Decision,
  what: string,
) =>
  withStore(given, io, async (store) => {
    const ref: DecisionRef =
      given.decisionId === undefined
        ? given.ref
        : { runId: given.ref, decisionId: given.decisionId };
    const recorded = await workflowRuns(store).decide(ref, decision, {
      by: given.by,
      note: given.note,
    });
    return print(out, recorded, () => [`${what}; a worker continues the run`]);
  });

/** `fino workflows approve|reject|resume`: a pending decision decided, once. */
const decideCommands = (io: CommandIo): CommandTask[] => [
  subcommand(io, {
    name: 'approve',
    description: 'Approve a pending tool call',
    inputSchema: decisionInput({}),
    positionals: DECISION_POSITIONALS,
    run: (given, out) => recordDecision(io, given, out, { approve: true }, 'approved'),
  }),
  subcommand(io, {
    name: 'reject',
    description:
      'Reject a pending tool call or suspension; the call returns the reason as an error',
    inputSchema: decisionInput({ reason: v.string().min(1).describe('why') }),
    positionals: DECISION_POSITIONALS,
    run: (given, out) => recordDecision(io, given, out, { reject: given.reason }, 'rejected'),
  }),
  subcommand(io, {
    name: 'resume',
    description: 'Answer a suspended tool call with a value',
    inputSchema: decisionInput({
      value: v.any().describe('the answer, as JSON (quote strings: \'"M"\')'),
    }),
    positionals: DECISION_POSITIONALS,
    run: (given, out) => recordDecision(io, given, out, { resume: given.value }, 'answered'),
  }),
];

/** `fino workflows`: inspects durable workflow runs and acts on them. */
export const workflows = parentCommand(
  'workflows',
  'Inspects durable workflow runs (fino/workflow): start, signal, cancel, decide.',
  (io) => [
    listCommand(io),
    showCommand(io),
    startCommand(io),
    signalCommand(io),
    cancelCommand(io),
    ...decideCommands(io),
    historyCommand(io, (given, act) => withStore(given, io, act)),
    ...repairCommands(io, withStore),
    queryCommand(io, withStore),
    updateCommand(io, withStore),
    schedulesCommand(io, openWorkflowStore),
  ],
);
