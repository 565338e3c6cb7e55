/**
 * Schedules on SQLite and PostgreSQL: catch-up after downtime (skip, once, all — bounded),
 * pause, resume and delete with their audit trail, creating again at every start, a
 * started worker firing a tick as it falls due, and 10 000 schedules with a bounded cost
 * per firing. Workers racing in several processes, and killed at a tick, are in
 * test/workflow/schedules-crash.test.ts.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { memoryStoreDriver } from '../../../src/internal/durable/index.ts';
import {
  postgresWorkflowStore,
  schedules,
  sqliteWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
} from '../../../src/workflow/index.ts';
import { sqlWorkflowStore } from '../../../src/workflow/sql/index.ts';
import { SCHEDULES_PER_FIRING, TICKS_PER_FIRING } from '../../../src/workflow/sql/run-schedules.ts';
import { countingDriver } from '../../helpers/counting-driver.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('workflow-schedules');
const MINUTE = 60_000;
const report = workflow({ id: 'report', run: (ctx) => ctx.step('send', () => 'sent') });
const keysOf = async (store: WorkflowStore) =>
  (await store.list({ workflowId: 'report', limit: 10_000 })).map((run) => run.key);
const tickKeys = (id: string, first: number, count: number) =>
  Array.from(
    { length: count },
    (_, k) => `schedule:${id}:${new Date(first + k * MINUTE).toISOString()}`,
  );

/** A fresh database per test: `open()` connects to it (several times for racing workers). */
type Engine = (name: string) => Promise<{ open(): WorkflowStore } | undefined>;

function scheduleTests(engine: Engine) {
  const withStores = async (
    name: string,
    body: (open: () => WorkflowStore) => Promise<void>,
    skip: () => void,
  ) => {
    const db = await engine(name);
    if (!db) return skip();
    const opened: WorkflowStore[] = [];
    try {
      await body(() => {
        const store = db.open();
        opened.push(store);
        return store;
      });
    } finally {
      await Promise.all(opened.map((store) => store.close()));
    }
  };

  it("after downtime, 'all' starts the latest maxCatchUp missed ticks, oldest first, once", async ({
    skip,
  }) => {
    await withStores(
      'all',
      async (open) => {
        const store = open();
        const startAt = Date.now() - 20 * MINUTE - 1_000; // 21 ticks due
        await schedules({ store }).create({
          id: 'digest',
          workflow: report,
          every: MINUTE,
          startAt,
          catchUp: 'all',
          maxCatchUp: 15,
        });
        const w = worker({ store, workflows: [report] });
        await w.drain();
        await w.drain(); // nothing more is due
        expect(await keysOf(store)).toEqual(tickKeys('digest', startAt + 6 * MINUTE, 15));
        expect((await store.list({ status: 'done', limit: 100 })).length).toBe(15);
        const shown = await schedules({ store }).get('digest');
        expect(shown).toMatchObject({
          ticksStarted: 15,
          ticksMissed: 6,
          lastTick: new Date(startAt + 20 * MINUTE).toISOString(),
        });
        expect(Date.parse(shown.nextTick!)).toBe(startAt + 21 * MINUTE);
      },
      skip,
    );
  });

  it("'once' starts one run for the latest missed tick; 'skip' starts none for late ticks", async ({
    skip,
  }) => {
    await withStores(
      'once-skip',
      async (open) => {
        const store = open();
        const startAt = Date.now() - 10 * MINUTE - 1_000;
        const all = schedules({ store });
        await all.create({ id: 'once', workflow: report, every: MINUTE, startAt });
        await all.create({
          id: 'skip',
          workflow: report,
          cron: '* * * * *',
          startAt: startAt - 2 * MINUTE,
          catchUp: 'skip',
        });
        await worker({ store, workflows: [report] }).drain();
        const keys = await keysOf(store);
        expect(keys.filter((k) => k!.includes(':once:'))).toEqual(
          tickKeys('once', startAt + 10 * MINUTE, 1),
        );
        // The latest cron tick is at most a minute old: on time, so it runs; the older ones are skipped.
        const skipped = await all.get('skip');
        expect(skipped.ticksStarted + skipped.ticksMissed).toBeGreaterThanOrEqual(11);
        expect(keys.filter((k) => k!.includes(':skip:')).length).toBe(skipped.ticksStarted);
        expect(skipped.ticksStarted).toBeLessThanOrEqual(1);
        expect((await all.get('once')).ticksMissed).toBe(10);
      },
      skip,
    );
  });

  it('pause stops ticks, resume ticks from now on, delete keeps the runs; all audited', async ({
    skip,
  }) => {
    await withStores(
      'pause',
      async (open) => {
        const store = open();
        const all = schedules({ store });
        const startAt = Date.now() - 5 * MINUTE - 1_000;
        await all.create(
          { id: 'p', workflow: 'report', every: MINUTE, startAt, catchUp: 'all' },
          { by: 'ana' },
        );
        expect((await all.pause('p', { by: 'ana', note: 'maintenance' })).paused).toBe(true);
        const w = worker({ store, workflows: [report] });
        await w.drain();
        expect(await keysOf(store)).toEqual([]);
        const resumed = await all.resume('p', { by: 'bo' });
        expect(resumed.paused).toBe(false);
        expect(Date.parse(resumed.nextTick!)).toBeGreaterThan(Date.now() - 1_000); // the paused ticks are not caught up
        await w.drain();
        expect(await keysOf(store)).toEqual([]);
        expect((await all.get('p')).audit!.map((a) => [a.action, a.by, a.note])).toEqual([
          ['schedule-create', 'ana', undefined],
          ['schedule-pause', 'ana', 'maintenance'],
          ['schedule-resume', 'bo', undefined],
        ]);
        await all.delete('p', { by: 'ana' });
        await expect(all.get('p')).rejects.toMatchObject({
          code: 'NOT_FOUND',
          message: 'no schedule with id "p"',
        });
        await expect(all.pause('p')).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(await all.list()).toEqual([]);
      },
      skip,
    );
  });

  it('creating again with the same spec returns it; another spec under its id is KEY_CONFLICT', async ({
    skip,
  }) => {
    await withStores(
      'again',
      async (open) => {
        const all = schedules({ store: open() });
        const spec = {
          id: 'nightly',
          workflow: report,
          cron: '0 3 * * *',
          timezone: 'Europe/Oslo',
          input: { full: true },
        };
        expect((await all.create(spec)).created).toBe(true);
        expect((await all.create(spec)).created).toBe(false);
        await expect(all.create({ ...spec, cron: '0 4 * * *' })).rejects.toMatchObject({
          code: 'KEY_CONFLICT',
          message:
            'schedule "nightly" already exists with another workflow, timing or input; delete it first to change it',
        });
        expect((await all.list()).map((s) => [s.id, s.workflowId, s.input])).toEqual([
          ['nightly', 'report', { full: true }],
        ]);
      },
      skip,
    );
  });

  it('a started worker starts a tick when it falls due', async ({ skip }) => {
    await withStores(
      'live',
      async (open) => {
        const store = open();
        const startAt = Date.now() + 300;
        await schedules({ store }).create({ id: 'soon', workflow: report, every: MINUTE, startAt });
        const w = worker({ store, workflows: [report], pollMs: 5_000, handleSignals: false });
        await w.start();
        try {
          while ((await store.list({ status: 'done' })).length === 0) await sleep(50);
        } finally {
          await w.stop();
        }
        expect(await keysOf(store)).toEqual(tickKeys('soon', startAt, 1)); // woken by the schedule, not the 5 s poll
      },
      skip,
    );
  });
}

describe('schedules (SQLite)', () => {
  let n = 0;
  scheduleTests(async (name) => {
    const path = join(dir, `${name}-${n++}.db`);
    return { open: () => sqliteWorkflowStore(path) };
  });

  it('10 000 schedules: a firing reads and starts a bounded batch, and all fire in the end', async () => {
    const counting = countingDriver(
      memoryStoreDriver('memoryWorkflowStore', 'the memory workflow store'),
    );
    const store = sqlWorkflowStore(counting.driver);
    try {
      const all = schedules({ store });
      const startAt = Date.now() - MINUTE;
      for (let i = 0; i < 10_000; i++) {
        const due = i % 10 === 0; // 1 000 due now, 9 000 later
        await all.create({
          id: `s${String(i).padStart(5, '0')}`,
          workflow: 'report',
          every: 3_600_000,
          startAt: due ? startAt : startAt + 1_800_000,
        });
      }
      let firings = 0;
      let started = 0;
      for (;;) {
        counting.reset();
        const fired = await store.fireSchedules(['report'], Date.now());
        firings++;
        started += fired.started;
        expect(counting.rows('workflow_schedules')).toBeLessThanOrEqual(SCHEDULES_PER_FIRING);
        expect(fired.started).toBeLessThanOrEqual(TICKS_PER_FIRING);
        if (!fired.more) break;
      }
      expect(started).toBe(1_000);
      expect(firings).toBe(Math.ceil(1_000 / SCHEDULES_PER_FIRING));
      counting.reset();
      expect((await store.fireSchedules(['report'], Date.now())).started).toBe(0); // nothing due: nothing read
      expect(counting.rows('workflow_schedules')).toBe(0);
      expect((await all.list({ limit: 20_000 })).length).toBe(10_000);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe('schedules (PostgreSQL)', () => {
  const postgres = postgresForTests();
  scheduleTests(async () => {
    const pg = await postgres();
    if (!pg) return undefined;
    const schema = await freshSchema(pg.url);
    return { open: () => postgresWorkflowStore(pg.url, { schema }) };
  });
});
