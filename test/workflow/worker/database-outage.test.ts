/**
 * A started worker driving 30 runs on a real PostgreSQL server through an outage:
 * backends killed every 40 ms for 4 s, then the server restarted as a crash does
 * (`pg_ctl restart -m immediate`). No run ends `error`, every run ends `done`, and no
 * completed step runs twice (issue 32, item 1; decisions 102 and 170).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { postgresWorkflowStore, worker, workflow } from '../../../src/workflow/index.ts';
import { freshSchema, terminateBackends } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';

// Durable: the test crashes the server, and commits must survive it.
const postgres = postgresForTests({ durable: true });

const RUNS = 30;
const STEPS = 4;

/** Kills every client backend every `everyMs` for `forMs`. */
async function killBackends(url: string, forMs: number, everyMs: number): Promise<void> {
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    await terminateBackends(url).catch(() => 0); // the killer's own connection may be refused too
    await sleep(everyMs);
  }
}

describe('a worker through a PostgreSQL outage', () => {
  it('ends no run as error: every run ends done, no completed step ran twice', async (ctx) => {
    const server = await postgres();
    if (!server?.faults) return ctx.skip(); // no server, or one this test may not restart
    const schema = await freshSchema(server.url);
    const store = postgresWorkflowStore(server.url, { schema });
    const ran = new Map<string, number>();
    const flow = workflow({
      id: 'outage',
      async run(ctx, input: { n: number }) {
        const done: string[] = [];
        for (let s = 0; s < STEPS; s++) {
          done.push(
            await ctx.step(`s${s}`, async () => {
              const key = `${input.n}:${s}`;
              ran.set(key, (ran.get(key) ?? 0) + 1);
              await sleep(30);
              return key;
            }),
          );
        }
        return done;
      },
    });
    const errors: unknown[] = [];
    const w = worker({
      store,
      workflows: [flow],
      concurrency: 8,
      leaseMs: 10_000,
      pollMs: 100,
      handleSignals: false,
      onError: (error) => errors.push(error),
    });
    try {
      const runIds: string[] = [];
      for (let n = 0; n < RUNS; n++) runIds.push((await flow.start({ n }, { store })).runId);
      await w.start();
      await killBackends(server.url, 4_000, 40);
      await server.faults.restart();
      let statuses: string[] = [];
      for (;;) {
        statuses = (await store.list({ workflowId: 'outage' }).catch(() => [])).map(
          (run) => run.status,
        );
        if (statuses.length === RUNS && statuses.every((s) => s === 'done' || s === 'error')) break;
        await sleep(200);
      }
      expect(statuses.filter((s) => s === 'error')).toEqual([]);
      for (const [n, runId] of runIds.entries()) {
        const run = await flow.get(runId, { store });
        expect(run.output).toEqual(Array.from({ length: STEPS }, (_, s) => `${n}:${s}`));
      }
      expect(ran.size).toBe(RUNS * STEPS);
      expect([...ran.entries()].filter(([, times]) => times > 1)).toEqual([]);
      // What the worker reported, if anything, is a database failure, never a crash.
      for (const error of errors) expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    } finally {
      await w.stop();
      await store.close();
    }
  }, 180_000);
});
