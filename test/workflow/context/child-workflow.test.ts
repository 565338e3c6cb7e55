/**
 * Child run ids always fit (a parent with a 200-character id starts its child, whose id
 * stays the same on every replay), and nesting stops at MAX_CHILD_DEPTH with
 * INVALID_ARGUMENT naming the depth: a workflow that starts itself ends there.
 */
import { describe, expect, it } from 'vitest';
import { type AnyWorkflow, worker, workflow } from '../../../src/workflow/index.ts';
import { childRunId, MAX_CHILD_DEPTH, MAX_RUN_ID_CHARS } from '../../../src/workflow/run-id.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const freshStore = memoryStorePerTest();

const pack = workflow({
  id: 'pack',
  run: (ctx, item: string) => ctx.step('box', () => `${item} boxed`),
});
const order = workflow({
  id: 'order',
  run: (ctx, item: string) => ctx.child(pack, item, { id: `box-${'b'.repeat(150)}` }),
});

describe('ctx.child', () => {
  it('starts the child of a parent whose id is 200 characters, under one id across replays', async () => {
    const store = freshStore();
    const parentId = 'p'.repeat(MAX_RUN_ID_CHARS);
    const { runId } = await order.start('shoes', { store, runId: parentId });
    await worker({ store, workflows: [order, pack] }).drain();
    expect(await order.result(runId, { store })).toBe('shoes boxed');
    const runs = await store.list();
    expect(runs.map((run) => run.runId)).toEqual([
      parentId,
      childRunId(parentId, `box-${'b'.repeat(150)}`),
    ]);
    expect(runs[1].runId).toHaveLength(MAX_RUN_ID_CHARS);
    expect(runs[1].runId).toMatch(/^p+~[0-9a-f]{64}$/);
    expect(runs[1].parentRunId).toBe(parentId);
  });

  it('keeps short child ids as <runId>/<child id>', () => {
    expect(childRunId('wf_1', '$child:pack')).toBe('wf_1/$child:pack');
    expect(childRunId('a'.repeat(190), 'b'.repeat(20))).not.toBe(
      childRunId('a'.repeat(190), 'b'.repeat(21)),
    );
  });

  it(`stops a workflow that starts itself at ${MAX_CHILD_DEPTH} levels, naming the depth`, async () => {
    const store = freshStore();
    const forever: AnyWorkflow = workflow({
      id: 'forever',
      run: (ctx, n: number) => ctx.child(forever, n + 1),
    });
    const { runId } = await forever.start(0, { store, runId: 'r' });
    await worker({ store, workflows: [forever] }).drain();
    const runs = await store.list({ limit: 100 });
    expect(runs).toHaveLength(MAX_CHILD_DEPTH + 1);
    const deepest = runs.find((run) => JSON.parse(run.input!) === MAX_CHILD_DEPTH)!;
    expect(deepest.error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining(
        `is already ${MAX_CHILD_DEPTH} levels of child runs deep, the most allowed; does a workflow start itself without end?`,
      ),
    });
    expect(await forever.get(runId, { store })).toMatchObject({
      status: 'error',
      error: { code: 'STEP_FAILED' },
    });
  });
});
