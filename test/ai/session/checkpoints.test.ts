/**
 * Which checkpoints a session writes (decision 066): the ones a crash needs, not the ones
 * it can rebuild from what the store already holds.
 */
import { describe, expect, it } from 'vitest';
import { agent, type RunState } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { memoryStore, type Store, session } from '../../../src/ai/session/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';

/** An agent whose model asks for one `refund` needing approval, then answers; `keys` logs each execution. */
function refundAgent(keys: string[]) {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: v.object({ orderId: v.string() }),
    requiresApproval: true,
    execute: async ({ orderId }: { orderId: string }, ctx) => {
      keys.push(ctx.idempotencyKey ?? 'none');
      return `refunded ${orderId}`;
    },
  });
  const model = scriptedModel(
    Array.from(
      { length: 6 },
      () => (request: { messages: { role: string }[] }) =>
        request.messages.some((m) => m.role === 'assistant')
          ? 'Refunded.'
          : { toolCalls: [{ id: 'call_refund', name: 'refund', args: { orderId: 'o-1' } }] },
    ),
  );
  return agent({ model, tools: [refund] });
}

/** The store, logging each checkpoint it is asked to write; `failNext` makes the next one throw. */
function watched(store: Store) {
  const written: RunState[] = [];
  let failNext = false;
  const wrapped: Store = {
    ...store,
    checkpoint: async (runId, owner, state, leaseMs) => {
      if (failNext) {
        failNext = false;
        throw new Error('database connection lost');
      }
      written.push(state);
      return store.checkpoint(runId, owner, state, leaseMs);
    },
  };
  return { store: wrapped, written, failNextCheckpoint: () => (failNext = true) };
}

describe('session checkpoints', () => {
  it('writes one checkpoint when an approved run is continued to its end: the tool result', async () => {
    const { store, written } = watched(memoryStore());
    const keys: string[] = [];
    const runs = session({ store, agent: refundAgent(keys) });
    const run = await runs.start('Refund o-1');
    if (run.status !== 'suspended') throw new Error(`expected suspended, got ${run.status}`);
    written.length = 0;
    const done = await runs.approve(run.pending[0].token!);
    expect(done).toMatchObject({ status: 'done', text: 'Refunded.' });
    // Not the applied decision, not the closed turn, not the final turn: only the result.
    expect(written).toHaveLength(1);
    expect(written[0].turn?.results.map((r) => r.content)).toEqual(['refunded o-1']);
    expect(done.state?.turn).toBeUndefined();
    expect(done.state?.messages).toHaveLength(4);
    expect(keys).toHaveLength(1);
  });

  it('rebuilds the decisions it did not checkpoint from the store when the run is retried', async () => {
    const { store, failNextCheckpoint } = watched(memoryStore());
    const keys: string[] = [];
    const runs = session({ store, agent: refundAgent(keys) });
    const run = await runs.start('Refund o-1', { runId: 'run-retry' });
    if (run.status !== 'suspended') throw new Error(`expected suspended, got ${run.status}`);
    failNextCheckpoint(); // the tool runs, then its result cannot be stored
    const failed = await runs.approve(run.pending[0].token!);
    expect(failed).toMatchObject({ status: 'error', error: 'database connection lost' });
    // The stored state is still the suspended one: the approval lives in the store's rows.
    expect((await store.get('run-retry'))?.state?.turn?.pending).toHaveLength(1);
    const done = await runs.continue('run-retry', { retryErrors: true });
    expect(done).toMatchObject({ status: 'done', text: 'Refunded.' });
    // Run again (its result was never stored), with the same idempotency key, not asked again.
    expect(keys).toEqual(['run-retry:call_refund', 'run-retry:call_refund']);
  });
});

describe('the state a checkpoint is given (decision 089)', () => {
  /** Runs one approved refund to its end, logging the states `store.checkpoint` is given and the JSON it stored. */
  async function approvedRun(store: Store) {
    const given: RunState[] = [];
    const stored: string[] = [];
    const checkpoint = store.checkpoint.bind(store);
    store.checkpoint = async (runId, owner, state, leaseMs) => {
      given.push(state);
      const held = await checkpoint(runId, owner, state, leaseMs);
      stored.push(JSON.stringify((await store.get(runId))?.state));
      return held;
    };
    const runs = session({ store, agent: refundAgent([]) });
    const run = await runs.start('Refund o-1');
    if (run.status !== 'suspended') throw new Error(`expected suspended, got ${run.status}`);
    given.length = 0;
    stored.length = 0;
    const done = await runs.approve(run.pending[0].token!);
    return { given, stored, done };
  }

  it("is the agent's live state for fino's SQL stores, serialised before the run goes on", async () => {
    const { given, stored, done } = await approvedRun(memoryStore());
    expect(given).toHaveLength(1);
    expect(given[0]).toBe(done.state); // not a copy: the same object the run finished with
    // ...yet what was stored is the state as it was at the checkpoint: the turn still open.
    expect(JSON.parse(stored[0]).turn.results.map((r: { content: string }) => r.content)).toEqual([
      'refunded o-1',
    ]);
    expect(done.state?.turn).toBeUndefined();
  });

  it('is a copy for any other store, which may keep it', async () => {
    const inner = memoryStore();
    const { given, done } = await approvedRun({ ...inner });
    expect(given).toHaveLength(1);
    expect(given[0]).not.toBe(done.state);
    expect(given[0].turn?.results).toHaveLength(1);
  });
});
