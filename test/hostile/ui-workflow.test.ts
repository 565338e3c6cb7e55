/**
 * `workflowUIChunks` under hostile input: every bad argument refused at once with
 * `INVALID_ARGUMENT` naming it and what was expected; a hostile stream name refused at the
 * first read, before any chunk; a run of 10 000 stream chunks read with bounded memory
 * (a chunk is pulled from the store's stream only when the page asks for one); a store
 * that fails while the page follows the run ends the reading with its error, leaving no
 * timer or watcher; a text stream's JSON chunks stay data parts.
 */
import { describe, expect, it } from 'vitest';
import { workflowUIChunks } from '../../src/ai/ui/index.ts';
import {
  memoryWorkflowStore,
  type StreamChunk,
  WorkflowError,
  worker,
  workflow,
  workflowRuns,
} from '../../src/workflow/index.ts';
import { allChunks, liveTimers, until, watchedStore } from '../helpers/ui-stream.ts';
import { memoryStorePerTest } from '../helpers/workflow-store.ts';

const freshStore = memoryStorePerTest();

const counter = workflow({
  id: 'ui-counter',
  async run(ctx, count: number) {
    for (let n = 0; n < count; n++) await ctx.writeStream('numbers', n);
    return count;
  },
});

describe('workflowUIChunks refuses bad arguments at once', () => {
  const runs = workflowRuns(memoryWorkflowStore());
  const refused = (call: () => unknown, message: string | RegExp) => {
    let thrown: unknown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WorkflowError);
    expect(thrown).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((thrown as Error).message).toMatch(message);
  };

  it('a source that is not workflowRuns(store)', () => {
    refused(
      () => workflowUIChunks(null as never, 'r'),
      /source: expected workflowRuns\(store\).*received null/,
    );
    refused(
      () => workflowUIChunks({ get() {} } as never, 'r'),
      'received an object without history, readStream',
    );
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    refused(() => workflowUIChunks(hostile as never, 'r'), 'without get, history, readStream');
  });

  it('a run id that is not a non-empty string', () => {
    refused(
      () => workflowUIChunks(runs, '' as never),
      'runId: expected a run id, received an empty string',
    );
    refused(() => workflowUIChunks(runs, 42 as never), 'received number');
  });

  it('options of the wrong shape, each named', () => {
    refused(() => workflowUIChunks(runs, 'r', 'x' as never), 'options: expected an object');
    refused(
      () => workflowUIChunks(runs, 'r', { stream: ['a'] } as never),
      /unknown option "stream"; did you mean "streams"\?/,
    );
    refused(
      () => workflowUIChunks(runs, 'r', { streams: 'text' as never }),
      'streams: expected an array of at most 100 stream names',
    );
    refused(() => workflowUIChunks(runs, 'r', { streams: Array(101).fill('s') }), 'at most 100');
    refused(
      () => workflowUIChunks(runs, 'r', { streams: ['a', 7 as never] }),
      'streams[1]: expected a stream name, received number 7',
    );
    refused(
      () => workflowUIChunks(runs, 'r', { streams: new Array<string>(3) }),
      'streams[0]: expected a stream name, received undefined',
    );
    refused(
      () => workflowUIChunks(runs, 'r', { textStream: '' }),
      'textStream: expected a stream name',
    );
    refused(
      () => workflowUIChunks(runs, 'r', { signal: {} as never }),
      'signal: expected an AbortSignal',
    );
    for (const pollMs of [0, 9, Number.NaN, Number.POSITIVE_INFINITY, 60_001, '50' as never]) {
      refused(
        () => workflowUIChunks(runs, 'r', { pollMs }),
        'pollMs: expected a number of ms from 10 to 60000',
      );
    }
  });

  it('a stream name with a control character: at the first read, before any chunk', async () => {
    const store = freshStore();
    const { runId } = await counter.start(1, { store });
    const iterator = workflowUIChunks(workflowRuns(store), runId, { streams: ['a\u0000b'] })[
      Symbol.asyncIterator
    ]();
    await expect(iterator.next()).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('readStream: name'),
    });
  });
});

describe('workflowUIChunks keeps memory bounded', () => {
  it('reads a run of 10 000 stream chunks pulling one store chunk per chunk the page takes', async () => {
    const store = freshStore();
    const { runId } = await counter.start(10_000, { store });
    await worker({ store, workflows: [counter] }).drain();
    const runs = workflowRuns(store);
    let pulled = 0;
    const counted = {
      ...runs,
      readStream: (id: string, name: string, options?: { signal?: AbortSignal }) => {
        const chunks = runs.readStream(id, name, options);
        return (async function* (): AsyncGenerator<StreamChunk> {
          for await (const chunk of chunks) {
            pulled++;
            yield chunk;
          }
        })();
      },
    };
    const iterator = workflowUIChunks(counted, runId, { streams: ['numbers'] })[
      Symbol.asyncIterator
    ]();
    let taken = 0;
    let streamParts = 0;
    let last = -1;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      taken++;
      if (next.value.type === 'data-fino-workflow-stream') {
        streamParts++;
        expect(next.value.data.offset).toBe(last + 1);
        last = next.value.data.offset;
      }
      // start and the status part come first; never more than one stream chunk ahead.
      expect(pulled).toBeLessThanOrEqual(streamParts + 1);
      if (taken === 100) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(pulled).toBeLessThanOrEqual(streamParts + 1);
    }
    expect(streamParts).toBe(10_000);
    expect(last).toBe(9_999);
  });
});

describe('workflowUIChunks following a run that waits for days', () => {
  it('reads its history again only when the run changed, and still shows every event', async () => {
    const store = freshStore();
    const pausing = workflow({
      id: 'ui-pausing',
      async run(ctx) {
        await ctx.emit('step', 'before');
        await ctx.waitForSignal('go');
        await ctx.emit('step', 'after');
      },
    });
    const { runId } = await pausing.start(undefined, { store });
    const w = worker({ store, workflows: [pausing] });
    await w.drain();
    const runs = workflowRuns(store);
    let gets = 0;
    let histories = 0;
    const counted = {
      ...runs,
      get: (id: string) => {
        gets++;
        return runs.get(id);
      },
      history: (id: string) => {
        histories++;
        return runs.history(id);
      },
    };
    const reading = allChunks(workflowUIChunks(counted, runId, { pollMs: 10 }));
    await until(() => gets >= 20, 'twenty polls');
    expect(histories).toBeLessThanOrEqual(2);
    await runs.signal(runId, 'go');
    await w.drain();
    const chunks = await reading;
    const events = chunks.flatMap((c) =>
      c.type === 'data-fino-workflow-event' ? [c.data.value] : [],
    );
    expect(events).toEqual(['before', 'after']);
  });
});

describe('workflowUIChunks when the store fails', () => {
  it('ends the reading with the store’s error, freeing its stream watchers and timers', async () => {
    const base = freshStore();
    const { store, watching } = watchedStore(base);
    const waiter = workflow({ id: 'ui-wait', run: (ctx) => ctx.waitForSignal('never') });
    const { runId } = await waiter.start(undefined, { store });
    await worker({ store, workflows: [waiter] }).drain();
    const runs = workflowRuns(store);
    let reads = 0;
    const failing = {
      ...runs,
      get: async (id: string) => {
        if (++reads >= 3) throw new WorkflowError('STORE_UNAVAILABLE', 'the database went away');
        return runs.get(id);
      },
    };
    const timers = liveTimers();
    const reading = allChunks(
      workflowUIChunks(failing, runId, { streams: ['a', 'b'], pollMs: 10 }),
    );
    await expect(reading).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await until(() => watching() === 0, 'the watchers to be freed', 2_000);
    expect(liveTimers()).toBeLessThanOrEqual(timers);
  });
});

describe('workflowUIChunks: a text stream', () => {
  it('makes its string chunks the text and keeps its JSON chunks as data parts', async () => {
    const store = freshStore();
    const mixed = workflow({
      id: 'ui-mixed',
      async run(ctx) {
        await ctx.writeStream('out', 'Hello');
        await ctx.writeStream('out', { table: [1, 2] });
        await ctx.writeStream('out', ', world');
      },
    });
    const { runId } = await mixed.start(undefined, { store });
    await worker({ store, workflows: [mixed] }).drain();
    const chunks = await allChunks(
      workflowUIChunks(workflowRuns(store), runId, { textStream: 'out' }),
    );
    expect(chunks.slice(2, -1)).toEqual([
      { type: 'text-start', id: 'text-stream-out' },
      { type: 'text-delta', id: 'text-stream-out', delta: 'Hello' },
      {
        type: 'data-fino-workflow-stream',
        data: { runId, stream: 'out', offset: 1, value: { table: [1, 2] } },
      },
      { type: 'text-delta', id: 'text-stream-out', delta: ', world' },
      { type: 'text-end', id: 'text-stream-out' },
    ]);
  });
});
