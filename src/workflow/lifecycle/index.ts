/**
 * What callers do with a workflow's runs: the lifecycle calls behind a definition's
 * methods — start, signal, decide, await the result (`lifecycle.ts`) — reading runs
 * across workflows (`runs.ts`) and the view of a run and its history that both return
 * (`view.ts`), and a workflow wrapped as a tool that starts a run and waits for it
 * (`workflow-tool.ts`).
 *
 * It imports `src/internal/`, `fino:ai/agent`, `fino:ai/tool`, `fino:task`,
 * `fino:validate` and the module's files at its top (`types.ts`, `errors.ts`,
 * `json-value.ts`, the definition in `workflow.ts` and its checks in
 * `workflow-settings.ts`); never `context/` (a caller does not run a workflow's code)
 * nor `worker/`. The rest of `workflow` reaches it through this file.
 */
export {
  actorOf,
  awaitResult,
  decide,
  runOf,
  sendSignal,
  startRun,
  storeOf,
} from './lifecycle.ts';
export { type WorkflowRuns, workflowRuns } from './runs.ts';
export {
  schedules,
  scheduleView,
  type WorkflowSchedule,
  type WorkflowSchedules,
} from './schedules.ts';
export { type RunWaitingOn, runView, type WorkflowHistoryEntry, type WorkflowRun } from './view.ts';
export { type WorkflowToolOptions, workflowTool } from './workflow-tool.ts';
