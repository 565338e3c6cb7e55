/**
 * `fino:workflow`: durable workflows. A workflow's code runs again from the start each
 * time a worker picks its run up; every step, timer, signal wait and saved value is
 * checkpointed, so the replay returns saved results and the run continues where it
 * stopped — after a crash, a deploy, or a wait of days. Stores: memory, SQLite (the
 * default) and PostgreSQL. See docs/workflow.md.
 *
 * The rooms, Temporal style. `context/` is the deterministic side — what a run's code
 * sees: the replay engine and the `ctx` operations written against it, through which a
 * run's code reaches time, randomness and the store, so a replay takes the same path.
 * The other side starts, drives and shows runs: `lifecycle/` (what callers do — start,
 * signal, decide, read runs, a workflow as a tool), `worker/` (claiming runs under
 * leases and driving one execution), and the stores (`stores.ts`, `sql/`); `replay/`
 * exports a run's history and replays it against changed code in tests. At the top,
 * what both sides share: the definition (`workflow.ts`, its checks in
 * `workflow-settings.ts`), the stored records and the store interface (`types.ts`),
 * errors, checkpointed values (`json-value.ts`) and telemetry. `context/` never imports
 * `lifecycle/`, `worker/` or the stores. The module imports `fino:ai/agent`,
 * `fino:ai/tool`, `fino:task`, `fino:validate` and `src/internal` (the SQL layer in
 * `internal/sql`), never `fino:ai/session`.
 *
 * @module
 */

export type { PgPoolLike } from '../internal/sql/index.ts';
export type {
  AgentOutcome,
  Callable,
  CallOptions,
  ChildOptions,
  DurableAgent,
  PendingDecision,
  RetryPolicy,
  StepContext,
  StepOptions,
  UpdateHandlerOptions,
  WaitForSignalOptions,
  WorkflowContext,
} from './context/index.ts';
export { NonRetryableError, WorkflowError, type WorkflowErrorCode } from './errors.ts';
export { DEFAULT_MAX_VALUE_BYTES } from './json-value.ts';
export type {
  ForkedRun,
  ForkOptions,
  QueryOptions,
  ReadStreamOptions,
  RunWaitingOn,
  StreamChunk,
  UpdateOptions,
  WorkflowHistoryEntry,
  WorkflowRun,
} from './lifecycle/index.ts';
export {
  schedules,
  type WorkflowRequestToolOptions,
  type WorkflowRuns,
  type WorkflowSchedule,
  type WorkflowSchedules,
  type WorkflowToolOptions,
  workflowRequestTool,
  workflowRuns,
  workflowTool,
} from './lifecycle/index.ts';
export {
  DEFAULT_MAX_HISTORY_FILE_BYTES,
  exportHistory,
  type HistoryFilesReport,
  replayHistory,
  replayHistoryFiles,
  type WorkflowHistoryExport,
  type WorkflowHistoryExportEntry,
  type WorkflowReplay,
} from './replay/index.ts';
export type { CatchUpPolicy, ScheduleSpec } from './schedule-types.ts';
export { WORKFLOW_STATUSES } from './statuses.ts';
export {
  DEFAULT_WORKFLOW_DB,
  memoryWorkflowStore,
  type PostgresWorkflowStoreOptions,
  postgresWorkflowStore,
  type SqliteWorkflowStoreOptions,
  sqliteWorkflowStore,
} from './stores.ts';
export type { WorkflowTelemetryOptions } from './telemetry.ts';
export type * from './types.ts';
export type { DriveEnd } from './worker/index.ts';
export { type DrainReport, type Worker, type WorkerOptions, worker } from './worker/index.ts';
export {
  type AnyWorkflow,
  type StartOptions,
  type StoreOption,
  type Workflow,
  type WorkflowOptions,
  workflow,
} from './workflow.ts';
