/**
 * `fino workflows history <runId> [--json]`: a run's history exported for replaying in
 * tests (`exportHistory`, decision 236) — with `--json` the document `replayHistory` and
 * `replayHistoryFiles` read, to be saved as a file; without it one line per entry.
 */
import { v } from '../../validate/index.ts';
import { DEFAULT_WORKFLOW_DB, exportHistory, type WorkflowStore } from '../../workflow/index.ts';
import type { CommandIo } from '../command.ts';
import { databaseOption } from '../database-option.ts';
import { print, subcommand } from '../subcommand.ts';
import type { CommandTask } from '../task-command.ts';
import { runIdArgument } from './workflow-flags.ts';

/** How `fino workflows` opens its store for a subcommand, and closes it after. */
export type WithWorkflowStore = <T>(
  given: { db?: string },
  act: (store: WorkflowStore) => Promise<T>,
) => Promise<T>;

/** `fino workflows history`: the exported history of one run. */
export const historyCommand = (io: CommandIo, withStore: WithWorkflowStore): CommandTask =>
  subcommand(io, {
    name: 'history',
    description:
      "Export a run's history for replayHistory in tests (--json: the document to save as a file)",
    inputSchema: v.object({
      runId: runIdArgument,
      db: databaseOption(DEFAULT_WORKFLOW_DB),
    }),
    positionals: ['runId'],
    run: (given, out) =>
      withStore(given, async (store) => {
        const history = await exportHistory(given.runId, { store });
        return print(out, history, () => [
          `${history.run.runId}  ${history.run.workflowId}  ${history.run.status}  ${history.entries.length} entries  (--json to export)`,
          ...history.entries.map(
            (e) =>
              `  ${e.seq} ${e.kind} ${e.id} ${e.state}${e.error ? `  error: ${e.error.message}` : ''}`,
          ),
        ]);
      }),
  });
