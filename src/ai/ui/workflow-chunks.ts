/**
 * `workflowUIChunks`: a workflow run shown live on a page the way a chat is (decision
 * 252) — one assistant UI message whose id is the run id, with the run's status, its
 * pending decisions, its `ctx.emit` events and the streams the server names, followed
 * until the run ends. Parts come from `workflow-parts.ts`, the changes between two reads
 * from `workflow-run-changes.ts`, the readings from `workflow-lanes.ts`.
 */
import { abortError } from '../../internal/abort-error.ts';
import { WorkflowError } from '../../workflow/index.ts';
import { laneAfterLane, mergeLanes } from './merge-lanes.ts';
import type { UIMessageChunk } from './types.ts';
import { runLane, streamLane } from './workflow-lanes.ts';
import { endChunks, hasEnded, startChunk } from './workflow-parts.ts';
import { WorkflowRunChanges } from './workflow-run-changes.ts';
import { checkWorkflowSource, type WorkflowUISource } from './workflow-source.ts';
import {
  readWorkflowUIOptions,
  type WorkflowUIOptions,
  type WorkflowUISettings,
} from './workflow-ui-options.ts';

/**
 * The UI message stream of workflow run `runId`, read through `source`
 * (`workflowRuns(store)`): `start` (message id = the run id, metadata `fino.runId` and
 * `fino.status`), a `data-fino-workflow` part updated in place (status, what the run
 * waits on, its output or error), a `data-fino-workflow-decision` part per decision
 * (pending, then decided), a `data-fino-workflow-event` part per `ctx.emit`, a
 * `data-fino-workflow-stream` part per chunk of `options.streams` (text deltas for the
 * string chunks of `options.textStream`), and `finish` when the run ends — after
 * `data-fino-error` and `error` when it failed. A run that continued as new ends its
 * message (its successor's id is in the status part's `continuedTo`).
 *
 * Options are checked at once (`INVALID_ARGUMENT`); an unknown run rejects the first
 * read with `NOT_FOUND`. Values are pulled as the reader asks for them; each iteration
 * reads the run from the start, so a reconnecting page gets the whole message again, the
 * same chunks for the same stored run. `signal` or the reader's `return()` stops it at
 * once, leaving no timer.
 *
 * @example
 * ```ts
 * import { workflowUIChunks } from 'fino:ai/ui';
 * import { memoryWorkflowStore, worker, workflow, workflowRuns } from 'fino:workflow';
 *
 * const report = workflow({
 *   id: 'report',
 *   async run(ctx) {
 *     await ctx.emit('stage', 'writing');
 *     await ctx.writeStream('text', 'All done.');
 *     return { pages: 3 };
 *   },
 * });
 * const store = memoryWorkflowStore();
 * const { runId } = await report.start(undefined, { store });
 * await worker({ store, workflows: [report] }).drain();
 * for await (const chunk of workflowUIChunks(workflowRuns(store), runId, { textStream: 'text' })) {
 *   console.log(chunk.type); // start, data-fino-workflow, data-fino-workflow-event, text-start, …, finish
 * }
 * await store.close();
 * ```
 */
export function workflowUIChunks(
  source: WorkflowUISource,
  runId: string,
  options?: WorkflowUIOptions,
): AsyncIterable<UIMessageChunk> {
  checkWorkflowSource(source);
  if (typeof runId !== 'string' || runId === '') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `workflowUIChunks: runId: expected a run id, received ${typeof runId === 'string' ? 'an empty string' : typeof runId}`,
    );
  }
  const settings = readWorkflowUIOptions(options);
  return { [Symbol.asyncIterator]: () => following(source, runId, settings) };
}

/** One reading of the run, stopped at once by the caller's signal or `return()`. */
function following(
  source: WorkflowUISource,
  runId: string,
  settings: WorkflowUISettings,
): AsyncIterableIterator<UIMessageChunk> {
  const outer = settings.signal;
  const stop = new AbortController();
  const onAbort = () => stop.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  let closed = false;
  const release = () => {
    outer?.removeEventListener('abort', onAbort);
    if (!stop.signal.aborted) stop.abort(abortError(stop.signal, 'the reading ended'));
  };
  const chunks = (async function* () {
    try {
      if (outer?.aborted) throw outer.reason;
      yield* readRun(source, runId, settings, stop);
    } catch (error) {
      if (closed) return;
      if (outer?.aborted) throw abortError(outer, 'the workflow run’s reading was aborted');
      throw error;
    } finally {
      release();
    }
  })();
  return {
    next: () => chunks.next(),
    async return() {
      closed = true;
      release();
      await chunks.return(undefined).catch(() => {});
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** The chunks of the run's message: its start, its lanes' chunks, its end. */
async function* readRun(
  source: WorkflowUISource,
  runId: string,
  settings: WorkflowUISettings,
  stop: AbortController,
): AsyncGenerator<UIMessageChunk> {
  const signal = stop.signal;
  const streams = settings.streams.map((name) =>
    streamLane(
      source.readStream(runId, name, { signal }),
      runId,
      name,
      name === settings.textStream,
    ),
  );
  const first = await source.get(runId);
  yield startChunk(first);
  const changes = new WorkflowRunChanges();
  const lanes = [runLane({ source, first, changes, pollMs: settings.pollMs, signal }), ...streams];
  // An ended run is read lane after lane, so its chunks never depend on timing.
  const batches = hasEnded(first.status)
    ? laneAfterLane(lanes)
    : mergeLanes(lanes, () => stop.abort(abortError(signal, 'the reading ended')));
  for await (const batch of batches) yield* batch;
  yield* endChunks(changes.last ?? first);
}
