/**
 * `fino workflows query|update`: ask a run's query, send it an update and print the
 * result (decision 226). Both work on the store alone: a worker that runs the workflow
 * answers while the run waits, so the command waits for it (`--timeout-ms`).
 */
import { v } from '../../validate/index.ts';
import { DEFAULT_WORKFLOW_DB, workflowRuns } from '../../workflow/index.ts';
import type { CommandIo } from '../command.ts';
import { databaseOption } from '../database-option.ts';
import { print, subcommand } from '../subcommand.ts';
import { withStore } from './workflows.ts';

const db = databaseOption(DEFAULT_WORKFLOW_DB);
const runId = v.string().describe('the run id (as "list" prints it)');
const args = v.any().optional().describe('the arguments, as JSON (quote strings: \'"M"\')');
const timeoutMs = v
  .number()
  .optional()
  .describe('how long to wait for a worker to answer, in ms (default 30000)');

/** `fino workflows query`: a query answered from the run's state. */
export const queryCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'query',
    description: "Ask a run's query (ctx.onQuery); a worker answers while the run waits",
    inputSchema: v.object({
      runId,
      name: v.string().describe('the query name'),
      args,
      timeoutMs,
      db,
    }),
    positionals: ['runId', 'name'],
    run: (given, out) =>
      withStore(given, io, async (store) => {
        const options = given.timeoutMs === undefined ? {} : { timeoutMs: given.timeoutMs };
        const result = await workflowRuns(store).query(
          given.runId,
          given.name,
          given.args,
          options,
        );
        return print(out, { runId: given.runId, query: given.name, result }, () => [
          JSON.stringify(result) ?? 'undefined',
        ]);
      }),
  });

/** `fino workflows update`: an update applied once (by `--update-id`), its result printed. */
export const updateCommand = (io: CommandIo) =>
  subcommand(io, {
    name: 'update',
    description: 'Send a run an update (ctx.onUpdate) and print its result once applied',
    inputSchema: v.object({
      runId,
      name: v.string().describe('the update name'),
      args,
      updateId: v
        .string()
        .optional()
        .describe('names the update: sent again, it is applied once and its result returned'),
      timeoutMs,
      db,
    }),
    positionals: ['runId', 'name'],
    run: (given, out) =>
      withStore(given, io, async (store) => {
        const options = {
          ...(given.timeoutMs === undefined ? {} : { timeoutMs: given.timeoutMs }),
          ...(given.updateId === undefined ? {} : { updateId: given.updateId }),
        };
        const result = await workflowRuns(store).update(
          given.runId,
          given.name,
          given.args,
          options,
        );
        return print(out, { runId: given.runId, update: given.name, result }, () => [
          JSON.stringify(result) ?? 'undefined',
        ]);
      }),
  });
