/**
 * Retry and fork (decisions 233–235), on SQLite and PostgreSQL: a failed run retried
 * after the bug is fixed continues from where it stopped (its completed steps are not run
 * again); a run forked from a step copies the steps before it and runs the rest under
 * the current code; both audited; bad requests refused with clear codes.
 */
import { describe, expect, it } from 'vitest';
import { worker, workflow, workflowRuns } from '../../../src/workflow/index.ts';
import { eachWorkflowStore } from '../../helpers/workflow-store.ts';

const ran: string[] = [];
let bugFixed = false;

const invoice = workflow({
  id: 'invoice',
  async run(ctx, customer: string) {
    const total = await ctx.step('total', () => {
      ran.push('total');
      return 40;
    });
    const taxed = await ctx.step('tax', () => {
      ran.push('tax');
      if (!bugFixed) throw new Error('tax table missing');
      return total * 1.25;
    });
    return ctx.step('send', () => {
      ran.push('send');
      return `${customer}: ${taxed}`;
    });
  },
});

describe.each(eachWorkflowStore('repair'))('retry and fork (%s)', (_engine, open) => {
  it('retries a failed run from where it stopped: completed steps are not run again', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    ran.length = 0;
    bugFixed = false;
    const w = worker({ store, workflows: [invoice] });
    const { runId } = await invoice.start('ana', { store });
    await w.drain();
    expect((await invoice.get(runId, { store })).error?.message).toBe(
      'step "tax" failed: tax table missing',
    );
    bugFixed = true; // the fix is deployed
    const retried = await invoice.retry(runId, { store, by: 'ops', note: 'tax table restored' });
    expect(retried).toMatchObject({ status: 'running' });
    expect(retried.error).toBeUndefined();
    await w.drain();
    expect(await invoice.result(runId, { store })).toBe('ana: 50');
    expect(ran).toEqual(['total', 'tax', 'tax', 'send']);
    expect((await invoice.get(runId, { store })).audit).toMatchObject([
      {
        action: 'retry',
        by: 'ops',
        note: 'tax table restored; after: step "tax" failed: tax table missing; runs again: step "tax"',
      },
    ]);
  });

  it('retries a run its own code failed (not a step) under the fixed code', async ({ skip }) => {
    const store = (await open()) ?? skip();
    let fixed = false;
    let loads = 0;
    const report = workflow({
      id: 'report',
      async run(ctx) {
        const rows = await ctx.step('load', () => ++loads);
        if (!fixed) throw new TypeError('rows.map is not a function');
        return rows;
      },
    });
    const w = worker({ store, workflows: [report] });
    const { runId } = await report.start(undefined, { store });
    await w.drain();
    expect((await report.get(runId, { store })).error?.message).toBe('rows.map is not a function');
    fixed = true;
    await workflowRuns(store).retry(runId, { by: 'ops' });
    await w.drain();
    expect(await report.result(runId, { store })).toBe(1);
    expect(loads).toBe(1);
  });

  it('refuses to retry a run that did not fail (RUN_NOT_FAILED) or does not exist (NOT_FOUND)', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    const { runId } = await invoice.start('bo', { store });
    await expect(invoice.retry(runId, { store })).rejects.toMatchObject({
      code: 'RUN_NOT_FAILED',
      message: `workflow run "${runId}" is running: only a run that ended in error can be retried (fork makes a new run of any run)`,
    });
    await expect(workflowRuns(store).retry('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('forks a run from a step under the current code: the steps before it are copied, not run', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    ran.length = 0;
    bugFixed = true;
    const w = worker({ store, workflows: [invoice] });
    const { runId } = await invoice.start('cy', { store, key: 'invoice:cy' });
    await w.drain();
    expect(ran).toEqual(['total', 'tax', 'send']);
    const fork = await invoice.fork(runId, {
      store,
      fromStep: 'tax',
      input: 'cy (corrected)',
      runId: 'fix-1',
      by: 'ops',
    });
    expect(fork).toEqual({ runId: 'fix-1', created: true, status: 'running' });
    expect(await invoice.fork(runId, { store, fromStep: 'tax', runId: 'fix-1' })).toEqual({
      runId: 'fix-1',
      created: false,
      status: 'running',
    });
    await w.drain();
    expect(await invoice.result('fix-1', { store })).toBe('cy (corrected): 50');
    expect(ran).toEqual(['total', 'tax', 'send', 'tax', 'send']); // "total" copied
    const forked = await invoice.get('fix-1', { store });
    expect(forked).toMatchObject({
      forkedFrom: { runId, fromStep: 'tax' },
      input: 'cy (corrected)',
    });
    expect(forked.key).toBeUndefined(); // the key names the first run only
    expect(forked.audit).toMatchObject([
      { action: 'fork', by: 'ops', note: `forked from "${runId}" at step "tax"` },
    ]);
    expect((await invoice.get(runId, { store })).audit).toMatchObject([
      { action: 'fork', by: 'ops', note: 'forked into "fix-1" from step "tax"' },
    ]);
    expect((await invoice.list({ store })).map((run) => run.runId)).toEqual([runId, 'fix-1']);
  });

  it('refuses a fork at a step the history does not hold, of an unknown run, or onto another run', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    bugFixed = true;
    const { runId } = await invoice.start('di', { store, runId: 'src' });
    await worker({ store, workflows: [invoice] }).drain();
    await expect(invoice.fork(runId, { store, fromStep: 'taxes' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message:
        'fork: fromStep: workflow run "src" has no history entry "taxes"; it holds "total", "tax", "send"',
    });
    await expect(invoice.fork(runId, { store, fromStep: '' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(invoice.fork('nope', { store, fromStep: 'tax' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      invoice.fork(runId, { store, fromStep: 'tax', runId: 'src' }),
    ).rejects.toMatchObject({ code: 'KEY_CONFLICT' });
    await expect(
      invoice.fork(runId, { store, fromStep: 'tax', input: 7 as never }),
    ).resolves.toMatchObject({ created: true }); // invoice declares no input schema
    expect((await store.list()).length).toBe(2);
  });

  it('refuses a fork past an entry that still waits, naming it', async ({ skip }) => {
    const store = (await open()) ?? skip();
    const waits = workflow({
      id: 'waits',
      async run(ctx) {
        const [signal] = await Promise.all([ctx.waitForSignal('go'), ctx.step('after', () => 'x')]);
        return signal;
      },
    });
    const { runId } = await waits.start(undefined, { store, runId: 'w' });
    await worker({ store, workflows: [waits] }).drain();
    await expect(waits.fork(runId, { store, fromStep: 'after' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message:
        'fork: fromStep: signal "$signal:go", before "after" in run "w", still waits and cannot be copied; fork from "$signal:go" or earlier',
    });
  });
});
