/**
 * `fino workflows retry|fork` (decisions 233–235): a failed run run again from where it
 * stopped, or a run forked from a step into a new run — for repairs after a bug fix or
 * an outage. Both work on the store alone (a worker with the fixed code drives the run)
 * and are audited with `--by` and `--note`. Wired into `workflows.ts`, which lends its
 * way of opening the store.
 */
import { v } from '../../validate/index.ts';
import { DEFAULT_WORKFLOW_DB, type WorkflowStore, workflowRuns } from '../../workflow/index.ts';
import type { CommandIo } from '../command.ts';
import { databaseOption } from '../database-option.ts';
import { print, subcommand } from '../subcommand.ts';
import type { CommandTask } from '../task-command.ts';
import { byFlag, noteFlag, runIdArgument } from './workflow-flags.ts';

/** Opens the store named by `--db`, runs `act`, and closes the store (lent by `workflows.ts`). */
export type WithStore = <T>(
  given: { db?: string },
  io: CommandIo,
  act: (store: WorkflowStore) => Promise<T>,
) => Promise<T>;

const db = databaseOption(DEFAULT_WORKFLOW_DB);
const runId = runIdArgument;
const by = byFlag;
const note = noteFlag;

/** `fino workflows retry` and `fino workflows fork`. */
export const repairCommands = (io: CommandIo, withStore: WithStore): CommandTask[] => [
  subcommand(io, {
    name: 'retry',
    description: 'Run a failed run again from where it stopped (its completed steps are kept)',
    inputSchema: v.object({ runId, db, by, note }),
    positionals: ['runId'],
    run: (given, out) =>
      withStore(given, io, async (store) => {
        const run = await workflowRuns(store).retry(given.runId, {
          by: given.by,
          note: given.note,
        });
        return print(out, run, () => [`${run.runId} retried: a worker continues it`]);
      }),
  }),
  subcommand(io, {
    name: 'fork',
    description:
      'Fork a run from a step into a new run: the steps before it are copied, the rest run under the current code',
    inputSchema: v.object({
      runId,
      fromStep: v.string().describe('the id of the step to run again from (as "show" prints it)'),
      input: v.any().optional().describe("the new run's input, as JSON (default: the run's)"),
      as: v
        .string()
        .optional()
        .describe("the new run's id: forking again with it makes no second run"),
      db,
      by,
      note,
    }),
    positionals: ['runId', 'fromStep'],
    run: (given, out) =>
      withStore(given, io, async (store) => {
        const forked = await workflowRuns(store).fork(given.runId, {
          fromStep: given.fromStep,
          ...(given.input === undefined ? {} : { input: given.input }),
          ...(given.as === undefined ? {} : { runId: given.as }),
          by: given.by,
          note: given.note,
        });
        return print(out, forked, () => [
          `${forked.runId}  ${forked.created ? 'forked' : 'already forked (same id)'} from ${given.runId} at "${given.fromStep}": a worker drives it`,
        ]);
      }),
  }),
];
