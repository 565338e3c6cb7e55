import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskTimeoutError, task } from '../../src/task/index.ts';

const never = () => new Promise<never>(() => {});

afterEach(() => {
  vi.useRealTimers();
});

describe('timeoutMs', () => {
  it('answers with an isError result naming the tool and the limit, even if the executor never settles', async () => {
    const stuck = task({ name: 'stuck', timeoutMs: 20, run: never });
    expect(await stuck.invoke({})).toEqual({
      content: 'Tool "stuck" timed out after 20 ms',
      isError: true,
    });
  });

  it('does not stop an executor that ignores its signal: it keeps running after the deadline', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const effects: string[] = [];
    const stubborn = task({
      name: 'stubborn',
      timeoutMs: 10,
      run: async () => {
        await gate;
        effects.push('written after the deadline');
        return 'too late';
      },
    });
    expect(await stubborn.invoke({})).toEqual({
      content: 'Tool "stubborn" timed out after 10 ms',
      isError: true,
    });
    expect(effects).toEqual([]);
    release();
    await gate;
    await new Promise((resolve) => setImmediate(resolve));
    expect(effects).toEqual(['written after the deadline']);
  });

  it('aborts the executor signal with the timeout error', async () => {
    let seen: AbortSignal | undefined;
    const t = task({
      name: 'slow',
      timeoutMs: 20,
      run: (_input, ctx) => {
        seen = ctx.signal;
        return never();
      },
    });
    await t.invoke({});
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toMatchObject({ name: 'TimeoutError', timeoutMs: 20, taskName: 'slow' });
  });

  it('reports a timeout even when the executor rethrows its own AbortError', async () => {
    const t = task({
      name: 'polite',
      timeoutMs: 20,
      run: (_input, ctx) =>
        new Promise((_, reject) => {
          ctx.signal.addEventListener('abort', () =>
            reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
          );
        }),
    });
    expect(await t.invoke({})).toMatchObject({ isError: true, content: /timed out after 20 ms/ });
  });

  it('absorbs a rejection that arrives after the deadline', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      let rejectLate: (error: Error) => void = () => {};
      const late = task({
        name: 'late',
        timeoutMs: 10,
        run: () =>
          new Promise((_, reject) => {
            rejectLate = reject;
          }),
      });
      expect((await late.invoke({})).isError).toBe(true);
      rejectLate(new Error('too late'));
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('clears its timer when the executor completes', async () => {
    vi.useFakeTimers();
    const quick = task({ name: 'quick', timeoutMs: 60_000, run: () => 'ok' });
    expect(await quick.invoke({})).toEqual({ content: 'ok' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no listener on a long-lived parent signal', async () => {
    const parent = new AbortController();
    const quick = task({ name: 'quick', timeoutMs: 60_000, run: () => 'ok' });
    const failing = task({
      name: 'failing',
      timeoutMs: 60_000,
      run: () => {
        throw new Error('no');
      },
    });
    for (let i = 0; i < 200; i++) {
      await quick.invoke({}, { signal: parent.signal });
      await failing.invoke({}, { signal: parent.signal });
    }
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });

  it("links the executor's signal to the caller's and propagates the cancellation", async () => {
    const parent = new AbortController();
    let seen: AbortSignal | undefined;
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const t = task({
      name: 'linked',
      timeoutMs: 60_000,
      run: (_input, ctx) => {
        seen = ctx.signal;
        started();
        return never();
      },
    });
    const pending = t.invoke({}, { signal: parent.signal });
    await running;
    const reason = Object.assign(new Error('cancelled'), { name: 'AbortError' });
    parent.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(reason);
  });

  it('applies to run() too, which throws the timeout error', async () => {
    const stuck = task({ name: 'stuck', timeoutMs: 10, run: never });
    await expect(stuck.run()).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('rejects with the exported TaskTimeoutError, which instanceof recognises', async () => {
    const stuck = task({ name: 'stuck', timeoutMs: 10, throwOnError: true, run: never });
    const error = await stuck.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskTimeoutError);
    expect(error).toMatchObject({ name: 'TimeoutError', taskName: 'stuck', timeoutMs: 10 });
    await expect(stuck.run()).rejects.toBeInstanceOf(TaskTimeoutError);
  });
});
