/**
 * `workflowRuns(store).signal`, without the workflow's code, refuses a signal name the
 * run's workflow declared no signal of (the names are recorded when the run starts), and
 * takes any name for a workflow that declares none.
 */
import { describe, expect, it } from 'vitest';
import { v } from '../../../src/validate/index.ts';
import { workflow, workflowRuns } from '../../../src/workflow/index.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const freshStore = memoryStorePerTest();

describe('workflowRuns(store).signal', () => {
  it('refuses an undeclared name with UNKNOWN_SIGNAL listing the declared ones, queueing nothing', async () => {
    const store = freshStore();
    const flow = workflow({
      id: 'courier',
      signals: { scanned: v.object({ ok: v.boolean() }), lost: v.any() },
      run: (ctx) => ctx.waitForSignal('scanned'),
    });
    const { runId } = await flow.start(undefined, { store });
    const runs = workflowRuns(store);
    await expect(runs.signal(runId, 'scaned', { ok: true })).rejects.toMatchObject({
      code: 'UNKNOWN_SIGNAL',
      runId,
      message: 'workflow "courier" takes no signal "scaned"; it takes "scanned", "lost"',
    });
    await expect(flow.signal({ store, runId, name: 'scaned' })).rejects.toMatchObject({
      code: 'UNKNOWN_SIGNAL',
      message: 'workflow "courier" takes no signal "scaned"; it takes "scanned", "lost"',
    });
    await runs.signal(runId, 'scanned', { ok: true });
  });

  it('takes any name for a workflow that declares no signals', async () => {
    const store = freshStore();
    const flow = workflow({ id: 'open', run: (ctx) => ctx.waitForSignal('anything') });
    const { runId } = await flow.start(undefined, { store });
    await workflowRuns(store).signal(runId, 'whatever', 1);
    expect((await store.get(runId))?.signals).toBeUndefined();
  });
});
