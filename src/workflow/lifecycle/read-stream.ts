/**
 * Reading a stream out of a run (decision 227): from any offset, following it live until
 * it is closed or the run ends — a run that continued as new goes on into its successor's
 * stream of the same name, offsets counted over the chain (decision 254). Chunks are read from the store in pages; while there is
 * nothing new the reader waits — woken at once by a write of the same store object (a
 * worker in this process), else polling with a backoff from {@link FIRST_POLL_MS} to
 * {@link MAX_POLL_MS}. A reader that stops iterating (`break`, `return`) or whose `signal`
 * aborts holds no timer, listener or page after that (decision 228).
 */
import { WorkflowError } from '../errors.ts';
import { fromCheckpoint } from '../json-value.ts';
import { checkStreamName } from '../stream-limits.ts';
import type { StoredStreamChunk, WorkflowStore } from '../types.ts';
import { streamSuccessor } from './follow-chain.ts';

/** A chunk of a stream out of a run: its offset (from 0) and its value. */
export interface StreamChunk {
  offset: number;
  value: unknown;
}

/** Where `readStream` starts, and what stops it. */
export interface ReadStreamOptions {
  /** The offset of the first chunk to read (default 0): a safe integer ≥ 0; past the end, the reader waits for it. */
  from?: number;
  /** Aborting it ends the reading: the iteration throws the signal's reason (an `AbortError`). */
  signal?: AbortSignal;
}

/** Chunks read from the store at once. */
export const STREAM_PAGE = 256;
/** The first wait of a reader with nothing new, in ms; doubled while nothing comes. */
export const FIRST_POLL_MS = 25;
/** The longest wait of a reader between two reads of the store, in ms. */
export const MAX_POLL_MS = 1_000;

/**
 * The chunks of the run's stream `name` from `options.from` on, live until the stream is
 * closed or the run ends. Arguments are checked at once (`INVALID_ARGUMENT`); the run is
 * looked up by `lookUp` at the first read (`NOT_FOUND` then).
 */
export function readStream(
  store: WorkflowStore,
  runId: unknown,
  name: unknown,
  options: ReadStreamOptions,
  lookUp: () => Promise<unknown>,
): AsyncIterable<StreamChunk> {
  if (typeof runId !== 'string' || runId === '') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `readStream: expected a run id, received ${typeof runId === 'string' ? 'an empty string' : typeof runId}`,
    );
  }
  checkStreamName(name, 'readStream');
  const from = options.from ?? 0;
  if (!Number.isSafeInteger(from) || from < 0) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `readStream: from: expected an offset, a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, received ${typeof from === 'number' ? String(from) : typeof from}`,
    );
  }
  const signal = options.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `readStream: signal: expected an AbortSignal, received ${typeof signal}`,
    );
  }
  return {
    [Symbol.asyncIterator]: () => follow(store, runId, name, from, signal, lookUp),
  };
}

async function* follow(
  store: WorkflowStore,
  runId: string,
  name: string,
  from: number,
  signal: AbortSignal | undefined,
  lookUp: () => Promise<unknown>,
): AsyncGenerator<StreamChunk> {
  signal?.throwIfAborted();
  await lookUp();
  let offset = from; // over the chain, from the named run's first chunk (decision 254)
  let run = { runId, base: 0 };
  let pause = FIRST_POLL_MS;
  for (;;) {
    signal?.throwIfAborted();
    // Watched before the read, so a write between the read and the wait still wakes it.
    const woken = wakeUp(store, run.runId, name);
    try {
      const { chunks, ended } = await store.streamChunks(
        run.runId,
        name,
        offset - run.base,
        STREAM_PAGE,
      );
      for (const chunk of chunks) {
        const value = chunkValue(run.runId, name, chunk);
        offset = run.base + chunk.offset + 1;
        yield { offset: offset - 1, value };
      }
      if (ended) {
        const next = await streamSuccessor(store, run.runId, name);
        if (!next) return;
        run = { runId: next.runId, base: run.base + next.after };
        continue;
      }
      if (chunks.length > 0) {
        pause = FIRST_POLL_MS;
        continue;
      }
      await woken.within(pause, signal);
      pause = Math.min(pause * 2, MAX_POLL_MS);
    } finally {
      woken.stop();
    }
  }
}

/** A wake-up from the store's writes to the stream, and the timer that stands in for it. */
function wakeUp(store: WorkflowStore, runId: string, name: string) {
  let woken = false;
  let wake = () => {
    woken = true;
  };
  const unwatch = store.watchStream(runId, name, () => wake());
  let cancel = () => {};
  return {
    /** Resolves on a write, after `ms`, or rejects when `signal` aborts. */
    within(ms: number, signal: AbortSignal | undefined): Promise<void> {
      if (woken) return Promise.resolve();
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => wake(), ms);
        const onAbort = () => {
          cancel();
          reject(signal!.reason);
        };
        cancel = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        wake = () => {
          cancel();
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    stop(): void {
      cancel();
      unwatch();
    },
  };
}

/** A chunk's value; `CORRUPT_RUN` naming the chunk when its row is not JSON. */
function chunkValue(runId: string, name: string, chunk: StoredStreamChunk): unknown {
  try {
    return fromCheckpoint(chunk.value);
  } catch (error) {
    throw new WorkflowError(
      'CORRUPT_RUN',
      `chunk ${chunk.offset} of stream "${name}" of workflow run "${runId}" cannot be read: its value is not JSON (${(error as Error).message})`,
      { runId },
    );
  }
}
