/**
 * `worker()`: claims due runs of the workflows it knows and drives them, with leases, a
 * concurrency limit, timers fired from the store's index, and a graceful shutdown.
 */
import { checkDuration } from '../../internal/duration.ts';
import type { Execution, PendingDecision } from '../context/index.ts';
import { type SpanStarter, spanStarter, type WorkflowTelemetryOptions } from '../telemetry.ts';
import type { WorkflowStore } from '../types.ts';
import type { AnyWorkflow } from '../workflow.ts';
import { type DriveEnd, driveRun } from './drive.ts';
import { checkIdentity, workerOwner } from './identity.ts';
import { workerPresence } from './presence.ts';
import { fireAndNextDue, fireDue } from './schedule-firing.ts';

/** Options of {@link worker}. */
export interface WorkerOptions {
  store: WorkflowStore;
  /** The workflows this worker can run; runs of other workflows are left untouched. */
  workflows: readonly AnyWorkflow[];
  /** Runs driven at once (default 4, at most 1 000). */
  concurrency?: number;
  /** How long a claimed run is held without renewal, in ms (default 30 000; renewed every third of it). */
  leaseMs?: number;
  /** The longest wait between looks for due work, in ms (default 1 000). */
  pollMs?: number;
  /** Called with workflow ids of due runs that no workflow of this worker matches (each id once). Default: a process warning. */
  onUnknownWorkflow?(workflowIds: string[]): void;
  /**
   * Called when driving a run fails unexpectedly (a store error; the run is retried after
   * its lease) or a run cannot be read (`CORRUPT_RUN`; left untouched). Default: a process warning.
   */
  onError?(error: unknown, runId: string): void;
  /**
   * Called once with each new pending decision (a tool call to approve, a suspension to
   * answer) and its single-use token — the one moment the token exists outside the
   * decider's hands: send it on (a link, a message). Without it, decide by
   * `{ runId, decisionId }` (`pending`).
   */
  onPending?(pending: PendingDecision): void;
  /**
   * OpenTelemetry spans per execution of a run and per live step, call, agent and child
   * (on when `@opentelemetry/api` is installed); `false` turns them off, `tracer` picks the tracer.
   */
  telemetry?: false | WorkflowTelemetryOptions;
  /** Stop gracefully on SIGTERM and SIGINT, then let the signal end the process (default true for `start`). */
  handleSignals?: boolean;
  /**
   * A name this worker keeps across restarts (at most 200 characters, no `/`): started
   * again, it takes back at once the runs its dead predecessor held, instead of waiting
   * out their leases. `IDENTITY_IN_USE` while another live process holds it.
   */
  identity?: string;
}

/** What one `drain()` did. */
export interface DrainReport {
  /** How each run it drove ended, by run id. */
  runs: Record<string, DriveEnd>;
  /** Workflow ids of due runs no workflow of this worker matches (left untouched). */
  unknown: string[];
  /**
   * Ids of runs that cannot be read: a run row (left untouched), or a history entry or
   * input (the run is ended as `error` with `CORRUPT_RUN`); each also passed to `onError`.
   */
  corrupt: string[];
}

/** A worker: `start` runs it in the background, `drain` until no run is due. */
export interface Worker {
  /** The lease owner name it writes (host, pid, random suffix). */
  readonly id: string;
  /** Starts claiming and driving runs in the background; resolves once started. */
  start(): Promise<void>;
  /** Drives every due run (and runs that become due meanwhile) to its next park or end, then resolves. */
  drain(): Promise<DrainReport>;
  /** Stops gracefully: claims nothing more, lets in-flight steps finish, releases the runs. */
  stop(): Promise<void>;
}

/**
 * A worker over `store`: claims due runs of `workflows` under leases (a dead worker's runs
 * are taken over when its lease expires), drives at most `concurrency` at once, wakes for
 * the next due timer, and stops gracefully on SIGTERM.
 *
 * @example
 * ```ts
 * import { memoryWorkflowStore, worker, workflow } from 'fino:workflow';
 *
 * const nap = workflow({
 *   id: 'nap',
 *   async run(ctx) {
 *     await ctx.sleep('nap', 50);
 *     return 'rested';
 *   },
 * });
 * const store = memoryWorkflowStore();
 * const w = worker({ store, workflows: [nap], concurrency: 8 });
 * await w.start();
 * const { runId } = await nap.start(undefined, { store });
 * console.log(await nap.result(runId, { store, timeoutMs: 10_000 })); // rested
 * await w.stop();
 * await store.close();
 * ```
 */
export function worker(options: WorkerOptions): Worker {
  const { store, byId, ids, concurrency, leaseMs, pollMs, reportUnknown, onError, identity } =
    readWorkerOptions(options);
  const id = workerOwner(identity);
  const active = new Map<string, Slot>();
  let ended = 0; // drives ended: one that ends while `fill` claims may wake a run it missed
  /** Runs that cannot be read: skipped by every later claim of this worker. */
  const corrupt = new Set<string>();
  let stopping = false;
  let loop: Promise<void> | undefined;
  const { pause, nudge } = wakeablePause();
  const presence = workerPresence(store, ids, identity, id, {
    wake: () => active.size < concurrency && nudge(),
    onError,
    stop: () => self.stop(),
  });

  let startSpan: SpanStarter | undefined;
  let tracing: Promise<void> | undefined;

  /** Claims and starts runs while slots are free; how many it started. */
  const fill = async (ends: Record<string, DriveEnd>): Promise<number> => {
    tracing ??= spanStarter(options.telemetry).then((starter) => {
      startSpan = starter;
    });
    await tracing;
    let started = 0;
    while (!stopping && active.size < concurrency) {
      const claimed = await store.claimNext(id, leaseMs, ids, [...corrupt]);
      for (const error of claimed.corrupt) {
        corrupt.add(error.runId!);
        onError(error, error.runId!);
      }
      const run = claimed.run;
      if (!run) break;
      const slot: Slot = { done: Promise.resolve('lost') };
      slot.done = driveRun(byId.get(run.workflowId)!, run, {
        store,
        owner: id,
        leaseMs,
        ...(options.onPending ? { onPending: options.onPending } : {}),
        ...(startSpan ? { startSpan } : {}),
        onExecution: (execution) => {
          slot.execution = execution;
          if (stopping) execution.stop();
        },
        onCorrupt: (error) => reportCorrupt(corrupt, onError, run.runId, error),
      })
        .catch((error: unknown): DriveEnd => {
          onError(error, run.runId);
          return 'lost';
        })
        .then((end) => {
          ends[run.runId] = end;
          ended++;
          active.delete(run.runId);
          nudge();
          return end;
        });
      active.set(run.runId, slot);
      started++;
    }
    return started;
  };

  const unknownNow = unknownReporter(store, ids, reportUnknown);

  const signals = stopOnSignals(() => self.stop());

  const self: Worker = {
    id,
    async start() {
      if (loop) return;
      stopping = false;
      await store.list({ limit: 1 }); // opens and migrates the store, so a bad store fails here
      await presence.enter();
      if (options.handleSignals !== false) signals.listen();
      const ends: Record<string, DriveEnd> = {};
      loop = (async () => {
        while (!stopping) {
          try {
            await fill(ends);
            await unknownNow();
            const wait = untilNext(pollMs, await fireAndNextDue(store, ids, onError));
            if (stopping) break;
            await pause(wait);
          } catch (error) {
            onError(error, '(claiming)');
            if (!stopping) await pause(pollMs);
          }
        }
      })();
    },

    drain: () =>
      presence.during(async () => {
        const ends: Record<string, DriveEnd> = {};
        for (;;) {
          const endedBefore = ended;
          const started = await fill(ends);
          const settled = active.size === 0 && started === 0 && ended === endedBefore;
          if (settled && !(await fireDue(store, ids, onError))) break;
          if (active.size > 0) await Promise.race([...active.values()].map((slot) => slot.done));
        }
        return { runs: ends, unknown: await unknownNow(), corrupt: [...corrupt] };
      }),

    async stop() {
      stopping = true;
      signals.unlisten();
      nudge();
      for (const slot of active.values()) slot.execution?.stop();
      await loop;
      loop = undefined;
      await Promise.all([...active.values()].map((slot) => slot.done));
      await presence.leave();
    },
  };
  return self;
}

/** Workflow ids of due runs this worker does not know, each reported once; a function per worker. */
function unknownReporter(
  store: WorkflowStore,
  ids: readonly string[],
  reportUnknown: (workflowIds: string[]) => void,
): () => Promise<string[]> {
  const reported = new Set<string>();
  return async () => {
    const unknown = await store.dueElsewhere(ids);
    const fresh = unknown.filter((workflowId) => !reported.has(workflowId));
    for (const workflowId of fresh) reported.add(workflowId);
    if (fresh.length > 0) reportUnknown(fresh);
    return unknown;
  };
}

/** How long the loop waits: until the next due run (`next`, epoch ms), at most `pollMs`, at least 5 ms. */
const untilNext = (pollMs: number, next: number | undefined): number =>
  Math.max(5, Math.min(pollMs, next === undefined ? pollMs : next - Date.now()));

/** Remembers a run that cannot be read (later claims skip it) and reports it. */
function reportCorrupt(
  corrupt: Set<string>,
  onError: (error: unknown, runId: string) => void,
  runId: string,
  error: unknown,
): void {
  corrupt.add(runId);
  onError(error, runId);
}

/**
 * The loop's wait for the next due run, which `nudge` ends early (a run ended, a wake-up,
 * the worker stops) — or, nudged while the loop was busy, the next wait at once, so a
 * wake-up that arrives between a look and the wait is not lost; its timer keeps a started
 * worker's process alive.
 */
function wakeablePause(): { pause(ms: number): Promise<void>; nudge(): void } {
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let nudged = false;
  const nudge = () => {
    clearTimeout(timer);
    if (!wake) nudged = true;
    wake?.();
    wake = undefined;
  };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (nudged) {
        nudged = false;
        resolve();
        return;
      }
      wake = resolve;
      timer = setTimeout(nudge, ms);
    });
  return { pause, nudge };
}

/** A run this worker drives: how it ends, and its execution once started (to stop it). */
interface Slot {
  done: Promise<DriveEnd>;
  execution?: Execution;
}

/**
 * Stops the worker on SIGTERM and SIGINT, then lets the signal end the process as it
 * asked (unless the application listens for it too).
 */
function stopOnSignals(stop: () => Promise<void>): { listen(): void; unlisten(): void } {
  const onSignal = (signal: NodeJS.Signals) => {
    unlisten();
    void stop().finally(() => {
      if (process.listenerCount(signal) > 0) return; // the application handles it too
      process.kill(process.pid, signal); // its default action ends the process as the signal asked
      setTimeout(() => {}, 1_000); // and the process lives until it arrives
    });
  };
  const unlisten = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
  return {
    listen() {
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    },
    unlisten,
  };
}

/** Checks `worker()` options; the defaults of the optional ones filled in. */
function readWorkerOptions(options: WorkerOptions) {
  const { store } = options;
  if (!store || typeof store.claimNext !== 'function') {
    throw new TypeError('worker: store: expected a workflow store such as sqliteWorkflowStore()');
  }
  if (!Array.isArray(options.workflows)) {
    throw new TypeError(
      `worker: workflows: expected an array of workflows, received ${typeof options.workflows}`,
    );
  }
  const byId = new Map<string, AnyWorkflow>();
  for (const definition of options.workflows) {
    if (byId.has(definition.id))
      throw new TypeError(`worker: two workflows have the id "${definition.id}"`);
    byId.set(definition.id, definition);
  }
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1_000) {
    throw new RangeError(
      `worker: concurrency: expected a whole number from 1 to 1000, received ${String(concurrency)}`,
    );
  }
  const leaseMs = checkDuration('worker: leaseMs', options.leaseMs ?? 30_000);
  if (leaseMs < 10)
    throw new RangeError(`worker: leaseMs: expected at least 10 ms, received ${leaseMs}`);
  const pollMs = checkDuration('worker: pollMs', options.pollMs ?? 1_000);
  const reportUnknown =
    options.onUnknownWorkflow ??
    ((unknown: string[]) =>
      process.emitWarning(
        `fino:workflow worker: due runs of workflows this worker does not know are left untouched: ${unknown.join(', ')}`,
      ));
  const onError =
    options.onError ??
    ((error: unknown, runId: string) =>
      process.emitWarning(
        `fino:workflow worker: driving run "${runId}" failed: ${String((error as Error)?.message ?? error)}`,
      ));
  return {
    store,
    byId,
    ids: [...byId.keys()],
    concurrency,
    leaseMs,
    pollMs,
    reportUnknown,
    onError,
    identity: checkIdentity(options.identity),
  };
}
