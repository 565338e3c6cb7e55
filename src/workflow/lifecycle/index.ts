/**
 * What callers do with a workflow's runs: the lifecycle calls behind a definition's
 * methods — start, signal, decide, await the result (`lifecycle.ts`) — reading runs
 * across workflows (`runs.ts`) and the view of a run and its history that both return
 * (`view.ts`), following a run's stream out (`read-stream.ts`), retrying and forking runs (`repair.ts`), following a continue-as-new chain to its live run (`follow-chain.ts`), and a workflow wrapped
 * as a tool that starts a run and waits for it (`workflow-tool.ts`).
 *
 * It imports `src/internal/`, `fino:ai/agent`, `fino:ai/tool`, `fino:task`,
 * `fino:validate` and the module's files at its top (`types.ts`, `errors.ts`,
 * `json-value.ts`, the definition in `workflow.ts` and its checks in
 * `workflow-settings.ts`); never `context/` (a caller does not run a workflow's code)
 * nor `worker/`. The rest of `workflow` reaches it through this file.
 */

export { followChain, sendToChain } from './follow-chain.ts';
export {
  actorOf,
  awaitResult,
  decide,
  runOf,
  sendSignal,
  startRun,
  storeOf,
} from './lifecycle.ts';
export { type ReadStreamOptions, readStream, type StreamChunk } from './read-stream.ts';
export { type ForkedRun, type ForkOptions, forkRun } from './repair.ts';
export { type WorkflowRequestToolOptions, workflowRequestTool } from './request-tool.ts';
export {
  type QueryOptions,
  requestTarget,
  sendQuery,
  sendUpdate,
  type UpdateOptions,
} from './requests.ts';
export { type WorkflowRuns, workflowRuns } from './runs.ts';
export {
  schedules,
  scheduleView,
  type WorkflowSchedule,
  type WorkflowSchedules,
} from './schedules.ts';
export { type RunWaitingOn, runView, type WorkflowHistoryEntry, type WorkflowRun } from './view.ts';
export { type WorkflowToolOptions, workflowTool } from './workflow-tool.ts';
