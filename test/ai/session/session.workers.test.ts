/**
 * Several workers on PostgreSQL: approvals racing on two connections, and worker
 * processes draining approved runs with leases, one of them killed mid-run.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { postgresStore, type SessionRun, session } from '../../../src/ai/session/index.ts';
import { PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { worker } from './child.ts';
import { readLog, shopAgent } from './fixtures/shop-agent.ts';

const dir = tempDir('workers');
const postgres = postgresForTests();

const pgIt = (title: string, body: (url: string) => Promise<void>) =>
  it(
    title,
    async (ctx) => {
      const server = await postgres();
      if (!server) return ctx.skip();
      await body(server.url);
    },
    PROCESS_TIMEOUT_MS,
  );

type Suspended = Extract<SessionRun, { status: 'suspended' }>;

describe('session with several workers (PostgreSQL)', () => {
  pgIt(
    'lets one of two approvals racing on two connections win; the tool runs once',
    async (url) => {
      const schema = await freshSchema(url);
      const log = join(dir, 'race.jsonl');
      const [storeA, storeB] = [postgresStore(url, { schema }), postgresStore(url, { schema })];
      const a = session({ store: storeA, agent: shopAgent('order', log) });
      const b = session({ store: storeB, agent: shopAgent('order', log) });
      try {
        const run = (await a.start('Ship')) as Suspended;
        const results = await Promise.allSettled([
          a.approve(run.pending[0].token!, { by: 'a' }),
          b.approve({ runId: run.runId, toolCallId: 'ship_1' }, { by: 'b' }),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
        const won = results.find(
          (r) => r.status === 'fulfilled',
        ) as PromiseFulfilledResult<SessionRun>;
        const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(won.value.status).toBe('done');
        expect(lost.reason).toMatchObject({ code: 'ALREADY_DECIDED' });
        expect(readLog(log).filter((e) => e.tool === 'ship')).toHaveLength(1);
      } finally {
        await storeA.close();
        await storeB.close();
      }
    },
  );

  pgIt(
    'drains approved runs with several worker processes, each run in one place, taking over a dead worker’s run',
    async (url) => {
      const schema = await freshSchema(url);
      const log = join(dir, 'drain.jsonl');
      const store = postgresStore(url, { schema });
      const runs = session({ store, agent: shopAgent('order', log) });
      const M = 10;
      try {
        for (let i = 0; i < M; i++) {
          const run = (await runs.start(`Ship ${i}`, { runId: `run-${i}` })) as Suspended;
          await runs.approve(run.pending[0].token!, { defer: true, by: 'ops' });
        }
        const command = { op: 'drain', db: url, schema, log, plan: 'order' };

        // A worker dies in the middle of its first run, holding a short lease.
        expect(
          await worker({ ...command, leaseMs: 300 }, { FINO_TEST_KILL_IN: 'ship' }).done,
        ).toEqual({
          killed: 'SIGKILL',
        });
        const [orphan] = (await store.list({ status: 'running' })) as {
          runId: string;
          leaseExpiresAt?: number;
        }[];
        while (((await store.get(orphan.runId))!.leaseExpiresAt ?? 0) > Date.now() - 5)
          await sleep(25);

        const workers = [1, 2].map(() => worker({ ...command, leaseMs: 10_000 }));
        const answers = await Promise.all(workers.map((w) => w.done));
        const drained = answers.flatMap(
          (a) => (a.result as { runs: { runId: string; status: string }[] }).runs,
        );

        // Every run was driven by exactly one of the live workers, and finished.
        expect(drained.map((r) => r.runId).sort()).toEqual(
          Array.from({ length: M }, (_, i) => `run-${i}`).sort(),
        );
        expect(drained.every((r) => r.status === 'done')).toBe(true);
        expect((await store.list({ status: 'done' })).length).toBe(M);

        // Each approved call ran once; only the one in flight when its worker died ran twice, with one key.
        const ships = readLog(log).filter((e) => e.tool === 'ship');
        const perKey = new Map<string, number>();
        for (const e of ships) perKey.set(e.key!, (perKey.get(e.key!) ?? 0) + 1);
        expect(perKey.size).toBe(M);
        expect([...perKey].filter(([, count]) => count > 1)).toEqual([
          [`${orphan.runId}:ship_1`, 2],
        ]);
      } finally {
        await store.close();
      }
    },
  );
});
