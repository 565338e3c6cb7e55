/**
 * MCP task records whose commit meets a dropped connection (its outcome unknown) on a
 * real PostgreSQL server: creating a task (its record and its run) and ending it
 * completed, waiting on input or failed. Whether the commit landed or not, the task is
 * created once and ends as the worker said — never lost, never failed for the database
 * (issue 32; decision 170).
 */
import { describe, expect, it } from 'vitest';
import { mcpTaskStore } from '../../../../../src/ai/mcp/index.ts';
import { postgresStore } from '../../../../../src/ai/session/index.ts';
import { type CommitFault, commitFaultPool } from '../../../../helpers/commit-fault-pool.ts';
import { freshSchema } from '../../../../helpers/postgres.ts';
import { postgresForTests } from '../../../../helpers/postgres-for-tests.ts';

const postgres = postgresForTests();

const task = (taskId: string) => ({
  taskId,
  ownerKey: 'client:alice',
  toolName: 'report',
  arguments: { year: 2026 },
  ttlMs: 60_000,
  worker: 'w1',
  leaseMs: 60_000,
});

const call = {
  kind: 'approval',
  toolCallId: 'ask',
  toolName: 'report',
  args: {},
  argsHash: 'h',
} as const;

describe('a commit whose outcome is unknown (MCP tasks)', () => {
  for (const outcome of ['landed', 'lost'] as CommitFault[]) {
    it(`when the commit ${outcome}, a task is created and ends as its worker said`, async (ctx) => {
      const server = await postgres();
      if (!server) return ctx.skip();
      const schema = await freshSchema(server.url);
      let armed = false;
      // Every write of a task record or of its run fails at its commit, the first time.
      const seen = new Set<string>();
      const faulty = commitFaultPool(server.url, outcome, (statements) => {
        const write = statements.find((s) => /^\s*(INSERT|UPDATE)/.test(s));
        if (!armed || write === undefined || seen.has(write)) return false;
        seen.add(write);
        return true;
      });
      const store = postgresStore(faulty.pool, { schema });
      const tasks = mcpTaskStore(store);
      try {
        await store.get('warm-up'); // migrated before the faults
        armed = true;
        for (const id of ['done', 'asks', 'broke']) await tasks.create(task(id));
        await tasks.finish('done', 'w1', { status: 'completed', result: { ok: 1 } });
        await tasks.finish('asks', 'w1', { status: 'input_required', call });
        await tasks.finish('broke', 'w1', { status: 'failed', error: 'disk full' });
        expect(faulty.faults).toBeGreaterThanOrEqual(4);
        const done = await tasks.get('done');
        expect(done?.run.status).toBe('done');
        expect(tasks.resultOf(done!)).toEqual({ ok: 1 });
        expect((await tasks.get('asks'))?.run).toMatchObject({
          status: 'suspended',
          pending: [{ call: { toolCallId: 'ask' } }],
        });
        expect((await tasks.get('broke'))?.run).toMatchObject({
          status: 'error',
          error: 'disk full',
        });
        expect((await tasks.list('client:alice', { limit: 10 })).map((t) => t.taskId)).toEqual([
          'done',
          'asks',
          'broke',
        ]);
      } finally {
        await store.close();
        await faulty.end();
      }
    });
  }
});
