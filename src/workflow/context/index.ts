/**
 * The deterministic side of `fino:workflow`, Temporal style: what a run's code sees.
 * The replay engine (`replay-engine.ts`, what one execution needs and how it ends in
 * `execution-end.ts`, the ids of operations in `operation-id.ts`, what an entry keeps of a
 * result in `saved-result.ts`) runs the code again
 * from the start each time a worker picks the run up and returns saved results until the
 * history ends. Each `ctx` operation is written in its own file against it — `step.ts`
 * (with `retry.ts`), `timers.ts`, `signal-wait.ts`, `deterministic-values.ts`,
 * `code-version.ts`, `tool-call.ts`, `agent-child.ts`, `child-workflow.ts` (with
 * `child-cancel.ts`: a child when its parent is cancelled),
 * `emit-event.ts`, `continue-as-new.ts`, and `pending-decisions.ts` which parks a run on a decision;
 * `store-guard.ts` keeps a database failure from ending a run; `request-handlers.ts` holds the query and update handlers a run registers — and `context.ts` wraps them as the `ctx` a run receives (its types in `context-types.ts`).
 * A run's code reaches time, randomness and the store only through them, so a replay
 * takes the same path.
 *
 * It imports `src/internal/`, `fino:ai/agent`, `fino:task` and the module's shared
 * files at its top (`types.ts`, `errors.ts`, `json-value.ts`, `telemetry.ts`, `run-id.ts`, and the
 * `Workflow` type of `workflow.ts`, type-only: `ctx.child` takes a workflow), never the
 * side that starts, drives and shows runs (`lifecycle/`, `worker/`, the stores). The
 * rest of `workflow` reaches it through this file.
 */
export { Execution } from './context.ts';
// Every type of the `ctx` a run receives is public; `fino:workflow` names them one by one.
export type * from './context-types.ts';
export type { Continuation } from './continue-as-new.ts';
export type { ExecutionEnd } from './execution-end.ts';
export { requestArgs } from './request-handlers.ts';
export type { RetryPolicy } from './retry.ts';
export { isStoreUnavailable } from './store-guard.ts';
