/**
 * A worker imports the module that defines its isolated tasks. When that module calls
 * an isolated task at its top level, every worker would import it, call again in a new
 * worker, and so on without end. While a worker imports the module, an isolated call is
 * therefore refused: the worker fails its own call with `reentryMessage()`, and the
 * call made during the import never settles (the rest of the module's top level does
 * not run in the worker, which is then terminated).
 */

const IMPORTING = Symbol.for('fino.isolation.importing');

type ReentryListener = (taskName: string) => void;

const holder = globalThis as { [IMPORTING]?: ReentryListener };

/** Runs `importModule` with isolated calls refused until it settles; each refused call is given to `onReentry`. */
export function importRefusingCalls<T>(
  importModule: () => Promise<T>,
  onReentry: ReentryListener,
): Promise<T> {
  holder[IMPORTING] = onReentry;
  return importModule().finally(() => {
    if (holder[IMPORTING] === onReentry) delete holder[IMPORTING];
  });
}

/**
 * Whether an isolated call of `taskName` made now is a re-entry (this thread is a
 * worker importing its module); if so it is reported to the worker.
 */
export function isReentry(taskName: string): boolean {
  const listener = holder[IMPORTING];
  if (listener === undefined) return false;
  listener(taskName);
  return true;
}

/** What the worker's call fails with when `moduleUrl` called `taskName` at its top level. */
export function reentryMessage(moduleUrl: string, taskName: string): string {
  return `Isolated task "${taskName}" is called at the top level of ${moduleUrl} while a worker imports that module to find its isolated tasks: each worker would call it again in a new worker, without end. Move the call out of the module that defines the tools (define them in a module of their own and import it), or make it only in the main thread: if (isMainThread) { … } (from node:worker_threads)`;
}
