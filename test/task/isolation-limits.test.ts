/**
 * The bounds of worker isolation, from outside: real worker threads counted as Node
 * creates them (`process.on('worker')`), tools holding Buffers past their limit, and a
 * queue that fills.
 */
import { type Worker, Worker as WorkerThread } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { configureIsolation } from '../../src/task/index.ts';
import * as tools from './fixtures/isolated-limits.ts';

/** Counts the worker threads this thread starts, and the most alive at once. */
function countWorkers(): { readonly most: number; readonly started: number; stop(): void } {
  let alive = 0;
  const counts = { most: 0, started: 0 };
  const onWorker = (worker: Worker): void => {
    counts.started++;
    counts.most = Math.max(counts.most, ++alive);
    worker.once('exit', () => alive--);
  };
  process.on('worker', onWorker);
  return {
    get most() {
      return counts.most;
    },
    get started() {
      return counts.started;
    },
    stop: () => process.off('worker', onWorker),
  };
}

/** Whether the caller can read a worker's memory while it runs (Node ≥ 22.16). */
const canReadWorkerMemory =
  typeof (WorkerThread.prototype as { getHeapStatistics?: unknown }).getHeapStatistics ===
  'function';

afterEach(() => {
  configureIsolation();
});

describe('worker isolation bounds', { timeout: 120_000 }, () => {
  it('runs 24 concurrent calls on at most 2 workers when maxWorkers is 2, queueing the rest', async () => {
    configureIsolation({ maxWorkers: 2 });
    const workers = countWorkers();
    const counters = new Int32Array(new SharedArrayBuffer(8));
    const release = new Int32Array(new SharedArrayBuffer(4));
    try {
      const calls = Array.from({ length: 24 }, () => tools.overlap.invoke({ counters, release }));
      // Two calls run; the 22 others wait for them.
      await expect.poll(() => Atomics.load(counters, 0), { timeout: 60_000 }).toBe(2);
      Atomics.store(release, 0, 1);
      expect(await Promise.all(calls)).toEqual(Array(24).fill({ content: 'done' }));
    } finally {
      workers.stop();
    }
    expect(Atomics.load(counters, 1)).toBe(2);
    expect(workers.most).toBeLessThanOrEqual(2);
  });

  it('ends an idle worker of another pool to run a waiting call', async () => {
    configureIsolation({ maxWorkers: 1 });
    expect(await tools.small.invoke({})).toEqual({ content: 'small' });
    const workers = countWorkers();
    try {
      // `small`'s idle worker holds the only slot: it is ended for `overlap`'s pool.
      const counters = new Int32Array(new SharedArrayBuffer(8));
      const release = new Int32Array(new SharedArrayBuffer(4));
      Atomics.store(release, 0, 1);
      expect(await tools.overlap.invoke({ counters, release })).toEqual({ content: 'done' });
    } finally {
      workers.stop();
    }
    expect(workers.started).toBe(1);
    expect(workers.most).toBe(1);
  });

  it('fails a call at once when maxQueuedCalls calls already wait, naming the limits', async () => {
    configureIsolation({ maxWorkers: 1, maxQueuedCalls: 2 });
    const controller = new AbortController();
    const ctx = { signal: controller.signal };
    const running = tools.hold.invoke({}, ctx);
    const queued = [tools.hold.invoke({}, ctx), tools.hold.invoke({}, ctx)];
    const refused = await tools.hold.invoke({});
    expect(refused).toEqual({
      content:
        'Tool "hold": 2 isolated calls already wait for a worker (maxQueuedCalls 2, maxWorkers 1); try again later or raise the limits with configureIsolation()',
      isError: true,
    });
    controller.abort(new Error('enough'));
    // A queued call that is aborted leaves the queue with the abort reason.
    for (const call of [running, ...queued]) await expect(call).rejects.toThrow('enough');
  });

  it('stops a tool holding Buffers past maxExternalMemoryMb, and the caller goes on', async () => {
    const before = process.memoryUsage().rss;
    const result = await tools.holdYielding.invoke({ mb: 1024 });
    expect(result.isError).toBe(true);
    expect(String(result.content)).toMatch(
      /^Tool "hold_yielding" held \d+ MB outside its heap \(Buffers, ArrayBuffers\) in its worker, above its limit of 48 MB \(isolation\.maxExternalMemoryMb\), and was stopped$/,
    );
    // It was stopped far below the gigabyte it asked for.
    expect(process.memoryUsage().rss - before).toBeLessThan(512 * 2 ** 20);
    expect(await tools.holdYielding.invoke({ mb: 16 })).toEqual({ content: 'held 16 MB' });
  });

  it(
    canReadWorkerMemory
      ? 'stops a tool holding Buffers in a loop that never yields (Node ≥ 22.16 reads the worker from outside)'
      : 'lets a loop that never yields finish on Node 20, which cannot read a busy worker (documented)',
    async () => {
      const result = await tools.holdBlocking.invoke({ mb: 160 });
      if (canReadWorkerMemory) {
        expect(String(result.content)).toMatch(
          /^Tool "hold_blocking" held \d+ MB outside its heap/,
        );
      } else {
        expect(result).toEqual({ content: 'held 160 MB' });
      }
    },
  );
});

describe('configureIsolation', () => {
  it('sets the limits given, keeps the others and restores the defaults', () => {
    const defaults = configureIsolation();
    expect(defaults.maxWorkers).toBeGreaterThanOrEqual(2);
    expect(configureIsolation({ maxQueuedCalls: 5 })).toEqual({ ...defaults, maxQueuedCalls: 5 });
    expect(configureIsolation()).toEqual(defaults);
  });

  it.each([
    [
      { maxWorkers: 0 },
      'configureIsolation: maxWorkers: expected an integer of at least 1, received number 0',
    ],
    [
      { maxQueuedCalls: 1.5 },
      'maxQueuedCalls: expected an integer of at least 0, received number 1.5',
    ],
    [{ threads: 2 }, 'unknown limit "threads"; expected maxWorkers or maxQueuedCalls'],
    ['2', 'expected { maxWorkers?, maxQueuedCalls? }, received string "2"'],
  ])('refuses %j', (limits, message) => {
    expect(() => configureIsolation(limits as never)).toThrow(message);
  });
});
