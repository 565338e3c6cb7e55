/**
 * The execution model on the memory store: replay returns saved results, the replay
 * guard, retries, JSON-only results and their limit, timers, signals, versions.
 */
import { describe, expect, it } from 'vitest';
import { v } from '../../src/validate/index.ts';
import {
  NonRetryableError,
  type WorkflowError,
  worker,
  workflow,
} from '../../src/workflow/index.ts';
import { memoryStorePerTest } from '../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

describe('steps and replay', () => {
  it('runs each step once across replays and returns the saved result', async () => {
    const store = fresh();
    const calls: string[] = [];
    const order = workflow({
      id: 'order',
      input: v.object({ orderId: v.string() }),
      async run(ctx, { orderId }) {
        const order = await ctx.step('load', () => {
          calls.push('load');
          return { id: orderId, total: 12 };
        });
        const scan = await ctx.waitForSignal<{ ok: boolean }>('scan');
        const charged = await ctx.step('charge', () => {
          calls.push('charge');
          return order.total * 2;
        });
        return { charged, ok: scan.ok };
      },
    });
    const w = worker({ store, workflows: [order] });
    const { runId } = await order.start({ orderId: 'o-1' }, { store });
    await w.drain();
    const waiting = await order.get(runId, { store });
    expect(waiting.status).toBe('waiting');
    expect(waiting.waitingOn).toEqual({ signals: ['scan'], decisions: [] });
    await order.signal({ store, runId, name: 'scan', payload: { ok: true } });
    await w.drain();
    expect(await order.result(runId, { store })).toEqual({ charged: 24, ok: true });
    expect(calls).toEqual(['load', 'charge']);
    const history = await order.history(runId, { store });
    expect(history.map((e) => [e.kind, e.id, e.state])).toEqual([
      ['step', 'load', 'done'],
      ['signal', '$signal:scan', 'done'],
      ['step', 'charge', 'done'],
    ]);
  });

  it('checkpoints parallel steps independently under Promise.all and replays them in any order', async () => {
    const store = fresh();
    const runs: string[] = [];
    const fan = workflow({
      id: 'fan',
      async run(ctx) {
        const values = await Promise.all(
          ['a', 'b', 'c'].map((id, i) =>
            ctx.step(id, async () => {
              runs.push(id);
              await new Promise((resolve) => setTimeout(resolve, (3 - i) * 5));
              return id.toUpperCase();
            }),
          ),
        );
        await ctx.waitForSignal('go');
        return values.join('');
      },
    });
    const w = worker({ store, workflows: [fan] });
    const { runId } = await fan.start(undefined, { store });
    await w.drain();
    await fan.signal({ store, runId, name: 'go' });
    await w.drain();
    expect(await fan.result(runId, { store })).toBe('ABC');
    expect(runs.sort()).toEqual(['a', 'b', 'c']);
  });

  it('saves now, random and uuid so that a replay sees the same values', async () => {
    const store = fresh();
    const seen: unknown[][] = [];
    const saved = workflow({
      id: 'saved',
      async run(ctx) {
        const values = [(await ctx.now()).getTime(), await ctx.random(), await ctx.uuid()];
        seen.push(values);
        await ctx.waitForSignal('go');
        return values;
      },
    });
    const w = worker({ store, workflows: [saved] });
    const { runId } = await saved.start(undefined, { store });
    await w.drain();
    await saved.signal({ store, runId, name: 'go' });
    await w.drain();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
    expect(await saved.result(runId, { store })).toEqual(seen[0]);
  });
});

describe('the replay guard', () => {
  it('fails a run that uses a step id twice, naming both', async () => {
    const store = fresh();
    const twice = workflow({
      id: 'twice',
      async run(ctx) {
        await ctx.step('load', () => 1);
        await ctx.sleep('load', 10);
      },
    });
    const { runId } = await twice.start(undefined, { store });
    await worker({ store, workflows: [twice] }).drain();
    const run = await twice.get(runId, { store });
    expect(run.status).toBe('error');
    expect(run.error?.code).toBe('NONDETERMINISM');
    expect(run.error?.message).toContain('sleep "load" uses the id of step "load"');
  });

  it('fails a replay that meets a different step than the history holds, naming both', async () => {
    const store = fresh();
    let changed = false;
    const flow = workflow({
      id: 'flow',
      async run(ctx) {
        await ctx.step('load', () => 1);
        if (changed) await ctx.step('validate', () => 2);
        else await ctx.step('charge', () => 2);
        await ctx.waitForSignal('go');
      },
    });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    changed = true; // a deploy changed the code under the waiting run
    await flow.signal({ store, runId, name: 'go' });
    await w.drain();
    const run = await flow.get(runId, { store });
    expect(run.error?.code).toBe('NONDETERMINISM');
    expect(run.error?.message).toContain('step "validate"');
    expect(run.error?.message).toContain('step "charge"');
  });

  it('fails a replay whose step became a sleep under the same id', async () => {
    const store = fresh();
    let changed = false;
    const flow = workflow({
      id: 'kinds',
      async run(ctx) {
        if (changed) await ctx.sleep('pause', 1);
        else await ctx.step('pause', () => 1);
        await ctx.waitForSignal('go');
      },
    });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    changed = true;
    await flow.signal({ store, runId, name: 'go' });
    await w.drain();
    const run = await flow.get(runId, { store });
    expect(run.error?.code).toBe('NONDETERMINISM');
    expect(run.error?.message).toContain('sleep "pause" where the history holds step "pause"');
  });

  it('lets ctx.version change code safely: old runs keep the old path, new runs take the new one', async () => {
    const store = fresh();
    let deployed = false;
    const paths: string[] = [];
    const flow = workflow({
      id: 'versioned',
      async run(ctx, name: string) {
        await ctx.step('load', () => name);
        // The change: a new fee step replaces the old one. Runs already past this point keep v1.
        const version = deployed ? await ctx.version('new-fee', { min: 1, max: 2 }) : 1;
        const fee =
          version === 1 ? await ctx.step('fee', () => 1) : await ctx.step('fee-v2', () => 2);
        await ctx.waitForSignal('go');
        await ctx.step('finish', () => paths.push(`${name}:v${version}:fee ${fee}`));
      },
    });
    const w = worker({ store, workflows: [flow] });
    const old = await flow.start('old', { store });
    await w.drain();
    deployed = true;
    const recent = await flow.start('new', { store });
    await w.drain();
    await flow.signal({ store, runId: old.runId, name: 'go' });
    await flow.signal({ store, runId: recent.runId, name: 'go' });
    await w.drain();
    expect((await flow.get(old.runId, { store })).status).toBe('done');
    expect((await flow.get(recent.runId, { store })).status).toBe('done');
    expect(paths.sort()).toEqual(['new:v2:fee 2', 'old:v1:fee 1']);
  });

  it('fails a run whose saved version the code no longer supports', async () => {
    const store = fresh();
    let min = 1;
    const flow = workflow({
      id: 'dropped',
      async run(ctx) {
        await ctx.version('change', { min, max: min + 1 });
        await ctx.waitForSignal('go');
      },
    });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    await flow.signal({ store, runId, name: 'go' });
    min = 3; // versions 1 and 2 were removed
    await w.drain();
    const run = await flow.get(runId, { store });
    expect(run.error?.code).toBe('NONDETERMINISM');
    expect(run.error?.message).toContain(
      'supports versions 3 to 4, but this run follows version 2',
    );
  });
});

describe('retries and results', () => {
  it('retries with backoff and stops at a NonRetryableError; the failure is saved and replayed', async () => {
    const store = fresh();
    let attempts = 0;
    let permanent = 0;
    const flow = workflow({
      id: 'retry',
      async run(ctx) {
        const value = await ctx.step(
          'flaky',
          ({ attempt }) => {
            attempts++;
            if (attempt < 3) throw new Error(`try ${attempt}`);
            return attempt;
          },
          { retry: { maxAttempts: 5, initialDelayMs: 1 } },
        );
        try {
          await ctx.step(
            'refused',
            () => {
              permanent++;
              throw new NonRetryableError('card refused');
            },
            { retry: { maxAttempts: 5, initialDelayMs: 1 } },
          );
        } catch (error) {
          return {
            value,
            error: (error as WorkflowError).message,
            code: (error as WorkflowError).code,
          };
        }
      },
    });
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    expect(await flow.result(runId, { store })).toEqual({
      value: 3,
      error: 'step "refused" failed: card refused',
      code: 'STEP_FAILED',
    });
    expect([attempts, permanent]).toEqual([3, 1]);
  });

  it('refuses a result that is not JSON, naming the step and the path', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'dates',
      run: (ctx) => ctx.step('load', () => ({ order: { at: new Date(0) } })),
    });
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    const run = await flow.get(runId, { store });
    expect(run.status).toBe('error');
    expect(run.error?.code).toBe('NOT_JSON');
    expect(run.error?.message).toContain('the result of step "load" must be JSON');
    expect(run.error?.message).toContain('at .order.at is a Date');
  });

  it('refuses a 50 MB step result with a clear limit', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'big',
      run: (ctx) => ctx.step('dump', () => 'x'.repeat(50 * 1024 * 1024)),
    });
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    const run = await flow.get(runId, { store });
    expect(run.error?.code).toBe('TOO_LARGE');
    expect(run.error?.message).toMatch(
      /the result of step "dump" is 52428802 bytes of JSON, more than the limit of 2097152/,
    );
  });

  it('validates input at start and output at the end', async () => {
    const store = fresh();
    const flow = workflow({
      id: 'typed',
      input: v.object({ n: v.number() }),
      output: v.object({ doubled: v.number() }),
      run: (_ctx, { n }) => ({ doubled: n > 0 ? n * 2 : ('negative' as unknown as number) }),
    });
    await expect(flow.start({ n: 'x' } as never, { store })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const bad = await flow.start({ n: -1 }, { store });
    const good = await flow.start({ n: 2 }, { store });
    await worker({ store, workflows: [flow] }).drain();
    expect(await flow.result(good.runId, { store })).toEqual({ doubled: 4 });
    await expect(flow.result(bad.runId, { store })).rejects.toMatchObject({ code: 'RUN_FAILED' });
    expect((await flow.get(bad.runId, { store })).error?.code).toBe('INVALID_OUTPUT');
  });

  it('records a hostile thrown value as a readable error', async () => {
    const store = fresh();
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    const flow = workflow({
      id: 'hostile',
      run: () => {
        throw hostile;
      },
    });
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    const run = await flow.get(runId, { store });
    expect(run.status).toBe('error');
    expect(run.error?.message).toBe('an object that cannot be described was thrown');
  });
});
