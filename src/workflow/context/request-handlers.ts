/**
 * `ctx.onQuery` and `ctx.onUpdate` (decisions 224–225): the handlers a run's code
 * registers, and how a recorded update is applied again when the code replays.
 *
 * A handler is synchronous: it reads (a query) or changes (an update) the run's state and
 * returns a result. It may not call `ctx` — a query cannot change a run, and an update's
 * effect must be the same on every replay — so while a handler runs, every `ctx`
 * operation is refused: it returns without effect and the request fails.
 *
 * Updates are applied by the worker while the run's code waits (`worker/serve-requests.ts`);
 * each is recorded with the waits that were blocked then. On replay the update is applied
 * again when the code meets the first of those waits — before the wait returns, as it was
 * — and recorded updates keep their order.
 */
import { WorkflowError } from '../errors.ts';
import { fromCheckpoint } from '../json-value.ts';
import { checkPrintableName } from '../printable.ts';
import type { EntryKind, HistoryEntry } from '../types.ts';
import type { ReplayEngine } from './replay-engine.ts';

/** An update handler and its validator. */
interface UpdateHandler {
  handler: (args: unknown) => unknown;
  validate?: (args: unknown) => void;
}

/** What a guarded handler call gave: its value, or why it failed. */
export type HandlerOutcome =
  | { ok: true; value: unknown }
  | { ok: false; threw: unknown }
  | { ok: false; touched: string };

/** The handlers of each execution, by its engine. */
const byEngine = new WeakMap<ReplayEngine, RequestHandlers>();

/** The handlers of the execution `engine` runs (none for an engine made without them). */
export const handlersOf = (engine: ReplayEngine): RequestHandlers | undefined =>
  byEngine.get(engine);

/** The handlers one execution registered, and the updates its history holds. */
export class RequestHandlers {
  readonly queries = new Map<string, (args: unknown) => unknown>();
  readonly updates = new Map<string, UpdateHandler>();
  readonly #engine: ReplayEngine;
  /** Recorded updates not applied yet in this execution, oldest first. */
  readonly #recorded: HistoryEntry[];
  /** The operation a running handler tried (`ctx.step("x")`), if any. */
  #touched: string | undefined;
  #running = false;

  constructor(engine: ReplayEngine, history: readonly HistoryEntry[]) {
    this.#engine = engine;
    this.#recorded = history.filter((e) => e.kind === 'update').sort((a, b) => a.seq - b.seq);
    byEngine.set(engine, this);
  }

  /** The engine of the execution (for the worker that serves requests at its waits). */
  get engine(): ReplayEngine {
    return this.#engine;
  }

  /** Whether the code registered any handler: a waiting run then takes requests. */
  get registered(): boolean {
    return this.queries.size > 0 || this.updates.size > 0;
  }

  /**
   * Called as the code meets operation `id`: refuses it while a handler runs (a fake
   * finished entry, so it has no effect), else applies the recorded updates that were
   * applied while `id` waited.
   */
  beforeMeet(id: string, kind: EntryKind): HistoryEntry | undefined {
    if (kind === 'update') return undefined;
    if (this.#running) {
      this.#touched ??= `ctx.${kind === 'sleep' ? 'sleep' : kind}("${id}")`;
      return { id, kind, seq: 0, state: 'done', startedAt: 0 };
    }
    const last = this.#recorded.findLastIndex((e) => e.blockedOn?.includes(id));
    for (const entry of this.#recorded.splice(0, last + 1)) this.#reapply(entry);
    return undefined;
  }

  /** Calls `fn(args)` with every `ctx` operation refused; a promise returned counts as touching. */
  call(fn: (args: unknown) => unknown, args: unknown): HandlerOutcome {
    this.#running = true;
    this.#touched = undefined;
    let value: unknown;
    try {
      value = fn(args);
    } catch (threw) {
      return this.#touched ? { ok: false, touched: this.#touched } : { ok: false, threw };
    } finally {
      this.#running = false;
    }
    if (this.#touched) return { ok: false, touched: this.#touched };
    if (isThenable(value)) return { ok: false, touched: 'await (it returned a promise)' };
    return { ok: true, value };
  }

  /** Applies a recorded update again: its handler, with its saved arguments (its result is saved). */
  #reapply(entry: HistoryEntry): void {
    this.#engine.meet(entry.id, 'update');
    const spec = this.updates.get(entry.name ?? '');
    if (!spec) {
      this.#engine.fail(
        `the history holds update "${entry.name}" (${entry.id}), but the code registered no handler for it before the wait it was applied at: the workflow's code changed under a running run`,
      );
    }
    this.call(spec.handler, this.#engine.savedValue({ ...entry, value: entry.args }));
  }
}

const isThenable = (value: unknown): boolean =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/** Checks a handler name and function, as `ctx.onQuery`/`ctx.onUpdate` receive them. */
export function checkHandler(where: string, name: unknown, handler: unknown): string {
  checkPrintableName(name, `${where}(name)`);
  if (typeof handler !== 'function') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `${where}("${name}", handler): expected a function, received ${typeof handler}`,
    );
  }
  return name;
}

/** `ctx.onQuery(name, handler)`: answers queries `name` from the run's state (replaces an earlier one). */
export function onQuery(
  handlers: RequestHandlers,
  name: string,
  handler: (args: unknown) => unknown,
): void {
  handlers.queries.set(checkHandler('ctx.onQuery', name, handler), handler);
}

/** `ctx.onUpdate(name, handler, { validate })`: applies updates `name` (replaces an earlier one). */
export function onUpdate(
  handlers: RequestHandlers,
  name: string,
  handler: (args: unknown) => unknown,
  options?: { validate?: (args: unknown) => void },
): void {
  checkHandler('ctx.onUpdate', name, handler);
  const validate = options?.validate;
  if (validate !== undefined && typeof validate !== 'function') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `ctx.onUpdate("${name}", handler, { validate }): expected a function, received ${typeof validate}`,
    );
  }
  handlers.updates.set(name, { handler, ...(validate ? { validate } : {}) });
}

/** The arguments of a request, as the handler receives them. */
export const requestArgs = (args: string | undefined): unknown => fromCheckpoint(args);
