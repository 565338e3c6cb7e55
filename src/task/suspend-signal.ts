/**
 * Signals that execution should suspend instead of fail.
 *
 * Throwing a `SuspendSignal` (directly or via `ToolRunContext.suspend()`) tells the
 * surrounding agent, session or workflow harness to pause the run and wait for external
 * input — an approval decision, a human answer, a webhook — rather than treat the tool
 * call as an error. `Tool.invoke()` recognises it by name and always rethrows it,
 * bypassing both the `isError` conversion and `throwOnError`.
 *
 * The message defaults to `'Suspended'`. Attach a `payload` with whatever the resuming
 * side needs to present or resolve the suspension.
 *
 * Declared in `fino:task` (a task's `ctx.suspend()` throws it) and re-exported by
 * `fino:ai/tool`, where the specification documents it.
 *
 * @example
 * ```ts
 * import { SuspendSignal } from 'fino:ai/tool';
 *
 * throw new SuspendSignal('needs approval', { action: 'delete', target: 'prod-db' });
 * ```
 */
export class SuspendSignal extends Error {
  override readonly name = 'SuspendSignal';
  /** What the resuming side needs to present or resolve the suspension. */
  readonly payload: unknown;

  constructor(reason = 'Suspended', payload?: unknown) {
    super(reason);
    this.payload = payload;
  }
}
