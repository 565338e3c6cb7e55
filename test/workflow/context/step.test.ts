/**
 * A step's failure is bounded like its result: a 20 MiB message is cut to
 * MAX_ERROR_MESSAGE_CHARS with a note before it reaches the history, so no replay
 * re-reads it, and the run's own error is bounded by the same rule.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ERROR_MESSAGE_CHARS } from '../../../src/workflow/errors.ts';
import { worker, workflow } from '../../../src/workflow/index.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const freshStore = memoryStorePerTest();
const HUGE = 20 * 1024 * 1024;

describe('step failures', () => {
  it('keeps at most MAX_ERROR_MESSAGE_CHARS of a 20 MiB message, in the history and the run', async () => {
    const store = freshStore();
    const seen: number[] = [];
    const flow = workflow({
      id: 'huge-failure',
      async run(ctx) {
        try {
          await ctx.step('explode', () => {
            throw new Error('x'.repeat(HUGE));
          });
        } catch (error) {
          seen.push((error as Error).message.length);
        }
        await ctx.waitForSignal('go'); // a park, so the next execution replays the failure
        await ctx.step('again', () => {
          throw new Error('é'.repeat(HUGE));
        });
      },
    });
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    await flow.signal({ store, runId, name: 'go' });
    await worker({ store, workflows: [flow] }).drain();

    const [failed, , again] = await store.history(runId);
    expect(failed.error?.message).toHaveLength(MAX_ERROR_MESSAGE_CHARS);
    expect(failed.error?.message).toMatch(
      new RegExp(`^step "explode" failed: x+… \\(truncated: ${HUGE + 23} characters in all\\)$`),
    );
    expect(again.error?.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
    expect(seen).toEqual([MAX_ERROR_MESSAGE_CHARS, MAX_ERROR_MESSAGE_CHARS]); // live, then replayed
    const run = await flow.get(runId, { store });
    expect(run).toMatchObject({ status: 'error', error: { code: 'STEP_FAILED' } });
    expect(run.error?.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
  });
});
