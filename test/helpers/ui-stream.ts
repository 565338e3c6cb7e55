/**
 * Reading fino's UI chunks as a page does, with `ai`'s own reader: chunks as a
 * `ReadableStream` pulled one at a time, read by `readUIMessageStream` into the message
 * it builds; plus a workflow store that counts its live stream watchers, and the live
 * timers of the process, for the tests that check a reading leaves nothing behind.
 *
 * @example
 * ```ts
 * const { message, errors } = await readMessage(workflowUIChunks(workflowRuns(store), runId));
 * expect(errors).toEqual([]);
 * ```
 */
import { type UIMessage as AiUIMessage, readUIMessageStream } from 'ai';
import type { UIMessageChunk } from '../../src/ai/ui/index.ts';
import type { WorkflowStore } from '../../src/workflow/index.ts';

/** `chunks` as a stream that pulls one chunk per read, and returns the iterator when cancelled. */
export function toStream<T>(chunks: AsyncIterable<T>): ReadableStream<T> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<T>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The message `ai`'s reader builds from `chunks`, every snapshot seen on the way, and the errors it reported. */
export async function readMessage(
  chunks: AsyncIterable<UIMessageChunk>,
  onSnapshot: (message: AiUIMessage) => void | Promise<void> = () => {},
): Promise<{ message: AiUIMessage | undefined; errors: unknown[] }> {
  const errors: unknown[] = [];
  let message: AiUIMessage | undefined;
  const stream = toStream(chunks) as unknown as ReadableStream<never>;
  for await (const snapshot of readUIMessageStream({ stream, onError: (e) => errors.push(e) })) {
    message = snapshot;
    await onSnapshot(snapshot);
  }
  return { message, errors };
}

/** Every chunk of `chunks`, in order. */
export async function allChunks(chunks: AsyncIterable<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const out: UIMessageChunk[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

/** `store`, counting its live stream watchers (`watchStream` subscriptions not yet ended). */
export function watchedStore(store: WorkflowStore): {
  store: WorkflowStore;
  watching: () => number;
} {
  let watching = 0;
  const wrapped: WorkflowStore = {
    ...store,
    watchStream: (runId, name, wake) => {
      watching++;
      const stop = store.watchStream(runId, name, wake);
      return () => {
        watching--;
        stop();
      };
    },
  };
  return { store: wrapped, watching: () => watching };
}

/** How many timers the process holds now. */
export const liveTimers = (): number =>
  process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

/** Waits until `check()` holds (every 5 ms), failing after `ms`. */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
