/**
 * `fino workflows query|update`: ask a run's query, send it an update and print the
 * result (decision 226). Both work on the store alone: a worker that runs the workflow
 * answers while the run waits, so the command waits for it (`--timeout-ms`).
 */
import { v } from '../../validate/index.ts';
import {
  DEFAULT_WORKFLOW_DB,
  type WorkflowRuns,
  type WorkflowStore,
  workflowRuns,
} from '../../workflow/index.ts';
import type { CommandIo } from '../command.ts';
import { databaseOption } from '../database-option.ts';
import { type Output, print, subcommand } from '../subcommand.ts';
import { nameArgument, runIdArgument } from './workflow-flags.ts';

const db = databaseOption(DEFAULT_WORKFLOW_DB);
const runId = runIdArgument;
const args = v.any().optional().describe('the arguments, as JSON (quote strings: \'"M"\')');
const timeoutMs = v
  .number()
  .optional()
  .describe('how long to wait for a worker to answer, in ms (default 30000)');

const POSITIONALS = ['runId', 'name'];

/** Opens the store `given.db` names, runs `act` and closes it (`workflows.ts` lends it). */
export type WithStore = <T>(
  given: { db?: string },
  io: CommandIo,
  act: (store: WorkflowStore) => Promise<T>,
) => Promise<T>;

/** A request subcommand's flags: the run, the request's name and arguments, then `extra`. */
const requestInput = <Extra extends Parameters<typeof v.object>[0]>(
  kind: 'query' | 'update',
  extra: Extra,
) =>
  v.object({
    runId,
    name: nameArgument(`the ${kind} name`),
    args,
    ...extra,
    timeoutMs,
    db,
  });

/** Sends a request on the store `given.db` names and prints its result. */
const printAnswer = (
  withStore: WithStore,
  io: CommandIo,
  given: { db?: string; runId: string; name: string },
  out: Output,
  kind: 'query' | 'update',
  send: (runs: WorkflowRuns) => Promise<unknown>,
) =>
  withStore(given, io, async (store) => {
    const result = await send(workflowRuns(store));
    return print(out, { runId: given.runId, [kind]: given.name, result }, () => [
      JSON.stringify(result) ?? 'undefined',
    ]);
  });

/** `fino workflows query`: a query answered from the run's state. */
export const queryCommand = (io: CommandIo, withStore: WithStore) =>
  subcommand(io, {
    name: 'query',
    description: "Ask a run's query (ctx.onQuery); a worker answers while the run waits",
    inputSchema: requestInput('query', {}),
    positionals: POSITIONALS,
    run: (given, out) =>
      printAnswer(withStore, io, given, out, 'query', (runs) =>
        runs.query(given.runId, given.name, given.args, {
          ...(given.timeoutMs === undefined ? {} : { timeoutMs: given.timeoutMs }),
        }),
      ),
  });

/** `fino workflows update`: an update applied once (by `--update-id`), its result printed. */
export const updateCommand = (io: CommandIo, withStore: WithStore) =>
  subcommand(io, {
    name: 'update',
    description: 'Send a run an update (ctx.onUpdate) and print its result once applied',
    inputSchema: requestInput('update', {
      updateId: nameArgument(
        'names the update: sent again, it is applied once and its result returned',
      ).optional(),
    }),
    positionals: POSITIONALS,
    run: (given, out) =>
      printAnswer(withStore, io, given, out, 'update', (runs) =>
        runs.update(given.runId, given.name, given.args, {
          ...(given.timeoutMs === undefined ? {} : { timeoutMs: given.timeoutMs }),
          ...(given.updateId === undefined ? {} : { updateId: given.updateId }),
        }),
      ),
  });
