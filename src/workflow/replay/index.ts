/**
 * Replaying real histories in tests (decisions 236 and 237): a run's history exported as
 * a versioned, sealed JSON document (`history-format.ts`, written by `export-history.ts`,
 * read back and checked by `read-history.ts`), and replayed against the current code
 * without side effects (`replay-history.ts`: the run's code on the replay engine, against
 * a store of no data (`edge-store.ts`), its tools and agents parked (`inert-context.ts`));
 * `replay-files.ts` replays a folder of histories, the CI step before a deploy.
 *
 * It imports `src/internal/`, `fino:ai/agent` (types), `fino:task`, the module's files at
 * its top, `context/` (the execution a worker would run), `lifecycle/` (the store option)
 * and `sql/` (the shape of a stored entry), each through its `index.ts`; never `worker/`.
 * The rest of `workflow` reaches it through this file.
 */
export { exportHistory } from './export-history.ts';
export type { WorkflowHistoryExport, WorkflowHistoryExportEntry } from './history-format.ts';
export {
  DEFAULT_MAX_HISTORY_FILE_BYTES,
  type HistoryFilesReport,
  replayHistoryFiles,
} from './replay-files.ts';
export { replayHistory, type WorkflowReplay } from './replay-history.ts';
