/**
 * `fino:workflow`: durable workflows. A workflow's code runs again from the start each
 * time a worker picks its run up; every step, timer, signal wait and saved value is
 * checkpointed, so the replay returns saved results and the run continues where it
 * stopped — after a crash, a deploy, or a wait of days. Stores: memory, SQLite (the
 * default) and PostgreSQL. See docs/workflow.md.
 *
 * The rooms, Temporal style: the deterministic side — what a run's code sees — is the
 * replay engine (`replay-engine.ts`, `execution-end.ts`) and the `ctx` operations written
 * against it (`step.ts`, `timers.ts`, `signal-wait.ts`, `deterministic-values.ts`,
 * `code-version.ts`, `tool-call.ts`, `agent-child.ts`, `child-workflow.ts`,
 * `emit-event.ts`, `pending-decisions.ts`, wrapped by `context.ts`): a run's code reaches
 * time, randomness and the store only through them, so a replay takes the same path.
 * The other side drives runs and answers callers:
 * `workflow.ts` (a definition; its checks in `workflow-settings.ts`, its lifecycle calls
 * in `lifecycle.ts`), `worker.ts` and `drive.ts` (claiming runs under leases and driving
 * one execution), `runs.ts` and `view.ts` (reading runs), `workflow-tool.ts`, and the
 * stores (`stores.ts`, `sql/`). It imports `fino:ai/agent`, `fino:ai/tool`, `fino:task`,
 * `fino:validate` and `src/internal` (the SQL layer in `internal/sql`), never
 * `fino:ai/session`.
 *
 * @module
 */

export type { PgPoolLike } from '../internal/sql/index.ts';
export type {
  AgentOutcome,
  Callable,
  CallOptions,
  DurableAgent,
  PendingDecision,
  StepContext,
  StepOptions,
  WaitForSignalOptions,
  WorkflowContext,
} from './context-types.ts';
export type { DriveEnd } from './drive.ts';
export { NonRetryableError, WorkflowError, type WorkflowErrorCode } from './errors.ts';
export { DEFAULT_MAX_VALUE_BYTES } from './json-value.ts';
export type { RetryPolicy } from './retry.ts';
export { type WorkflowRuns, workflowRuns } from './runs.ts';
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
export type { RunWaitingOn, WorkflowHistoryEntry, WorkflowRun } from './view.ts';
export { type DrainReport, type Worker, type WorkerOptions, worker } from './worker.ts';
export {
  type AnyWorkflow,
  type StartOptions,
  type StoreOption,
  type Workflow,
  type WorkflowOptions,
  workflow,
} from './workflow.ts';
export { type WorkflowToolOptions, workflowTool } from './workflow-tool.ts';
