/**
 * A continue-as-new chain stays one workflow to its callers when the worker that made the
 * switch is SIGKILLed right after it committed (decision 254), on SQLite and PostgreSQL:
 * a stream reader that started on the first run reads on into the successor and ends with
 * the chain; an update applied just before the switch and resent after the kill answers
 * its first result and is not applied again; a new update reaches the successor.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StreamChunk, WorkflowStore } from '../../../src/workflow/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { eachWorkflowStore } from '../../helpers/workflow-store.ts';
import { chainDesk } from '../fixtures/chain-desk.ts';

const WORKER = join(import.meta.dirname, '../fixtures/continue-worker.ts');

async function readAll(chunks: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const out: StreamChunk[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

describe.each(eachWorkflowStore('chain-crash'))(
  'a chain across a SIGKILL (%s)',
  (_engine, open) => {
    it(
      'keeps readers and update callers on one chain when the worker dies right after a switch',
      async ({ skip }) => {
        const store = (await open()) ?? skip();
        const place = (store as WorkflowStore & { place: { db: string; schema?: string } }).place;
        const runId = 'desk';
        await chainDesk.start({ generation: 0, total: 0 }, { store, runId });
        const reading = readAll(chainDesk.readStream(runId, 'log', { store }));

        const desk = { ...place, runId, workflow: 'chain-desk' };
        const killed = nodeChild(WORKER, desk, { FINO_TEST_KILL_CONTINUE: 'after:1' }); // after its commit
        expect(await chainDesk.update(runId, 'add', 5, { store, updateId: 'add-5' })).toBe(5);
        await chainDesk.signal({ store, runId, name: 'go', payload: 'next' });
        expect(await killed.done).toEqual({ killed: 'SIGKILL' });
        const first = await chainDesk.get(runId, { store });
        expect(first.status).toBe('continued'); // the switch landed before the kill

        // The caller missed the answer and sends it again: answered from the first run's record.
        expect(
          await chainDesk.update(runId, 'add', 5, { store, updateId: 'add-5', timeoutMs: 10_000 }),
        ).toBe(5);
        const survivor = nodeChild(WORKER, desk);
        expect(await chainDesk.update(runId, 'add', 2, { store, updateId: 'add-2' })).toBe(7);
        await chainDesk.signal({ store, runId, name: 'go', payload: 'end' });
        expect(await survivor.done).toEqual({ ok: true });

        expect(await chainDesk.result(runId, { store })).toBe(7); // add-5 applied once
        expect(await reading).toEqual([
          { offset: 0, value: 'g0' },
          { offset: 1, value: 'g1' },
        ]);
        const runs = await store.list({ workflowId: 'chain-desk' });
        expect(runs).toHaveLength(2); // one successor
      },
      PROCESS_TIMEOUT_MS,
    );
  },
);
