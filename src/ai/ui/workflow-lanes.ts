/**
 * The two kinds of reading a workflow's page is made of (decision 252), each an async
 * iterator of chunk batches: the run itself, polled every `pollMs` until it ends (status,
 * decisions, events), and one stream of the run (`readStream`), as data parts or, for the
 * text stream, as a text part. Both stop at once when `signal` aborts, holding no timer.
 */
import type { StreamChunk, WorkflowRun } from '../../workflow/index.ts';
import type { UIMessageChunk } from './types.ts';
import { hasEnded, streamDataChunk, textPartId } from './workflow-parts.ts';
import type { WorkflowRunChanges } from './workflow-run-changes.ts';
import type { WorkflowUISource } from './workflow-source.ts';

/** What the run's lane reads with. */
export interface RunLaneOptions {
  source: WorkflowUISource;
  /** The run as first read. */
  first: WorkflowRun;
  changes: WorkflowRunChanges;
  pollMs: number;
  signal: AbortSignal;
}

/**
 * The chunks of the run's changes, read every `pollMs` until the run has ended. Its
 * history (for `ctx.emit` events) is read again only when the run's `updatedAt` changed,
 * and on the round after (a write in the same millisecond as the last one seen), so a run
 * that waits for days costs one read of its row per poll, not of its whole history.
 */
export async function* runLane(options: RunLaneOptions): AsyncGenerator<UIMessageChunk[]> {
  const { source, changes, pollMs, signal } = options;
  let run = options.first;
  let seen: string | undefined;
  let changed = false;
  for (;;) {
    const stale = run.updatedAt !== seen || changed || hasEnded(run.status);
    changed = run.updatedAt !== seen;
    seen = run.updatedAt;
    const history = stale ? await source.history(run.runId) : undefined;
    const chunks = changes.update(run, history);
    if (chunks.length > 0) yield chunks;
    if (hasEnded(run.status)) return;
    await pause(pollMs, signal);
    run = await source.get(run.runId);
  }
}

/**
 * The chunks of one stream of the run: a `data-fino-workflow-stream` part per chunk, or,
 * when `asText`, its string chunks as deltas of one text part (ended with the stream).
 */
export async function* streamLane(
  chunks: AsyncIterable<StreamChunk>,
  runId: string,
  stream: string,
  asText: boolean,
): AsyncGenerator<UIMessageChunk[]> {
  const id = textPartId(stream);
  let open = false;
  for await (const chunk of chunks) {
    if (!asText || typeof chunk.value !== 'string') {
      yield [streamDataChunk(runId, stream, chunk)];
      continue;
    }
    const delta: UIMessageChunk = { type: 'text-delta', id, delta: chunk.value };
    yield open ? [delta] : [{ type: 'text-start', id }, delta];
    open = true;
  }
  if (open) yield [{ type: 'text-end', id }];
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts (clearing its timer). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
