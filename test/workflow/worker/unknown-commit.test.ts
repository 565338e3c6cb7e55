/**
 * A worker's write whose commit meets a dropped connection (its outcome unknown) on a real
 * PostgreSQL server: whether the commit landed or not, the run goes on and ends `done`,
 * every step runs once (issue 32, item 1; decision 170).
 */
import { describe, expect, it } from 'vitest';
import { postgresWorkflowStore, worker, workflow } from '../../../src/workflow/index.ts';
import { type CommitFault, commitFaultPool } from '../../helpers/commit-fault-pool.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';

const postgres = postgresForTests();

/** A worker's writes under its lease: history entries, a consumed signal, the run's end. */
const leaseWrite = (statements: readonly string[]) =>
  statements.some((s) => s.includes('fino_workflow_history') || s.includes('SET status = $1'));

describe('a commit whose outcome is unknown (workflows)', () => {
  for (const outcome of ['landed', 'lost'] as CommitFault[]) {
    it(`when the commit ${outcome}, every run ends done and every step ran once`, async (ctx) => {
      const server = await postgres();
      if (!server) return ctx.skip();
      const schema = await freshSchema(server.url);
      let seen = 0;
      let armed = false; // once the runs are started
      // Every other write under a lease fails at COMMIT; the one after it goes through.
      const faulty = commitFaultPool(
        server.url,
        outcome,
        (sql) => armed && leaseWrite(sql) && seen++ % 2 === 0,
      );
      const store = postgresWorkflowStore(faulty.pool, { schema });
      const ran = new Map<string, number>();
      const once = (key: string) => {
        ran.set(key, (ran.get(key) ?? 0) + 1);
        return key;
      };
      const flow = workflow({
        id: 'unknown-commit',
        async run(ctx, input: { n: number }) {
          const a = await ctx.step('a', () => once(`${input.n}:a`));
          const signal = await ctx.waitForSignal('go');
          const b = await ctx.step('b', () => once(`${input.n}:b`));
          return { a, b, signal };
        },
      });
      const errors: unknown[] = [];
      try {
        const runIds: string[] = [];
        for (let n = 0; n < 4; n++) {
          const { runId } = await flow.start({ n }, { store });
          await flow.signal({ store, runId, name: 'go', payload: n });
          runIds.push(runId);
        }
        armed = true;
        const w = worker({ store, workflows: [flow], onError: (error) => errors.push(error) });
        const report = await w.drain();
        for (const [n, runId] of runIds.entries()) {
          expect(report.runs[runId]).toBe('done');
          expect(await flow.get(runId, { store })).toMatchObject({
            status: 'done',
            output: { a: `${n}:a`, b: `${n}:b`, signal: n },
          });
        }
        expect(faulty.faults).toBeGreaterThan(4);
        expect([...ran.values()].every((times) => times === 1)).toBe(true);
        expect(ran.size).toBe(8);
        expect(errors).toEqual([]);
      } finally {
        await store.close();
        await faulty.end();
      }
    });
  }
});
