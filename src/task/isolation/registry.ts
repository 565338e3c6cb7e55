/**
 * The executors of the isolated tasks a thread has constructed, by defining module and
 * name: a worker imports a task's module and finds its executor here. Kept on
 * `globalThis` under a registered symbol, so that every copy of fino loaded in a thread
 * (the `fino:` specifiers resolve to `dist/`, a test may import `src/`) shares it.
 */

/** An executor as a task holds it. */
export type IsolatedExecutor = (input: never, ctx: never) => unknown;

const REGISTRY = Symbol.for('fino.isolation.executors');

type Registry = Map<string, IsolatedExecutor>;

function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

const keyOf = (moduleUrl: string, name: string): string => `${name}\u0000${moduleUrl}`;

/**
 * Records the executor of the isolated task `name` defined in `moduleUrl`. A later task
 * of the same name in the same module replaces it (a module evaluated again).
 */
export function registerExecutor(moduleUrl: string, name: string, run: IsolatedExecutor): void {
  registry().set(keyOf(moduleUrl, name), run);
}

/** The executor of the isolated task `name` defined in `moduleUrl`, if this thread has it. */
export function findExecutor(moduleUrl: string, name: string): IsolatedExecutor | undefined {
  return registry().get(keyOf(moduleUrl, name));
}

/** The names of the isolated tasks this thread has from `moduleUrl`, for error messages. */
export function executorNames(moduleUrl: string): string[] {
  const suffix = `\u0000${moduleUrl}`;
  return [...registry().keys()]
    .filter((key) => key.endsWith(suffix))
    .map((key) => key.slice(0, -suffix.length));
}
