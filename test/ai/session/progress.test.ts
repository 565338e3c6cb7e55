/**
 * A session stores the last `ctx.progress()` of a run's running tool, throttled, and
 * shows it on the run while that call is still running (decision 053).
 */
import { describe, expect, it, vi } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { memoryStore, type Store, session } from '../../../src/ai/session/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';

/** A latch a test opens once. */
function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** `copy` reports `updates` progress updates, then waits for `copied`; `wait` (next turn) waits for `waited`. */
function copyingAgent(updates: number) {
  const reported = latch();
  const copied = latch();
  const waiting = latch();
  const waited = latch();
  const copy = tool({
    name: 'copy',
    description: 'Copies files.',
    parameters: v.object({}),
    execute: async (_args: Record<string, never>, ctx) => {
      for (let i = 1; i <= updates; i++) {
        ctx.progress({ progress: i, total: updates, message: `file ${i}` });
      }
      reported.open();
      await copied.opened;
      return 'copied';
    },
  });
  const wait = tool({
    name: 'wait',
    description: 'Waits.',
    parameters: v.object({}),
    execute: async () => {
      waiting.open();
      await waited.opened;
      return 'waited';
    },
  });
  const model = scriptedModel([
    { toolCalls: [{ id: 'copy_1', name: 'copy', args: {} }] },
    { toolCalls: [{ id: 'wait_1', name: 'wait', args: {} }] },
    'Done.',
  ]);
  return { agent: agent({ model, tools: [copy, wait] }), reported, copied, waiting, waited };
}

/** The store, counting the progress writes that reach it. */
function counting(store: Store) {
  const writes: number[] = [];
  const wrapped: Store = {
    ...store,
    progress: (runId, owner, progress) => {
      writes.push(progress.progress);
      return store.progress(runId, owner, progress);
    },
  };
  return { store: wrapped, writes };
}

describe('session progress', () => {
  it('shows the last progress of the running call, written at most once a second, last one winning', async () => {
    const { store, writes } = counting(memoryStore());
    const bot = copyingAgent(500);
    const runs = session({ store, agent: bot.agent });
    const finished = runs.start('Copy', { runId: 'copy-run' });
    await bot.reported.opened;
    expect(writes).toEqual([1]); // 500 updates, one write so far
    await vi.waitFor(
      async () =>
        expect(await runs.get('copy-run')).toMatchObject({
          status: 'running',
          progress: {
            toolCallId: 'copy_1',
            toolName: 'copy',
            progress: 500,
            total: 500,
            message: 'file 500',
            at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
        }),
      { timeout: 5000, interval: 50 },
    );
    expect(writes).toEqual([1, 500]);

    // Once the call has its result, its progress is stale: the next call has reported none.
    bot.copied.open();
    await bot.waiting.opened;
    const waiting = await runs.get('copy-run');
    expect(waiting?.status).toBe('running');
    expect(waiting).not.toHaveProperty('progress');

    bot.waited.open();
    expect(await finished).toMatchObject({ status: 'done', text: 'Done.' });
    expect(await runs.get('copy-run')).not.toHaveProperty('progress');
    expect((await store.get('copy-run'))?.progress).toBeUndefined();
  });
});
