/**
 * A worker's look at due schedules is bounded on SQLite and PostgreSQL (decision 223):
 * one firing reads at most SCHEDULES_PER_FIRING (64) due schedules — the LIMIT of the
 * store's SQL — and one look makes at most FIRINGS_PER_LOOK (4) firings, so with more
 * due the look starts 256 runs, says more is due, and the next look starts the rest.
 */
import { describe, expect, it } from 'vitest';
import { schedules, worker, workflow } from '../../../src/workflow/index.ts';
import { SCHEDULES_PER_FIRING } from '../../../src/workflow/sql/run-schedules.ts';
import { FIRINGS_PER_LOOK, fireDue } from '../../../src/workflow/worker/schedule-firing.ts';
import { eachWorkflowStore } from '../../helpers/workflow-store.ts';

const report = workflow({ id: 'report', run: (ctx) => ctx.step('send', () => 'sent') });
const PER_LOOK = FIRINGS_PER_LOOK * SCHEDULES_PER_FIRING;
const DUE = SCHEDULES_PER_FIRING + PER_LOOK + 10; // one firing, one full look, and 10 left

describe.each(eachWorkflowStore('schedule-firing'))(
  'a look at due schedules (%s)',
  (_engine, open) => {
    it(`starts at most ${SCHEDULES_PER_FIRING} per firing and ${FIRINGS_PER_LOOK} firings per look; the rest at the next look`, async ({
      skip,
    }) => {
      const store = (await open()) ?? skip();
      const all = schedules({ store });
      const startAt = Date.now() - 60_000; // one tick each, due a minute ago
      for (let i = 0; i < DUE; i++) {
        await all.create({
          id: `s${String(i).padStart(3, '0')}`,
          workflow: report,
          every: 3_600_000,
          startAt,
        });
      }
      const first = await store.fireSchedules(['report'], Date.now());
      expect(first).toMatchObject({ started: SCHEDULES_PER_FIRING, more: true });
      const errors: unknown[] = [];
      expect(await fireDue(store, ['report'], (error) => errors.push(error))).toBe(true);
      const runs = async () => (await store.list({ workflowId: 'report', limit: 1_000 })).length;
      expect(await runs()).toBe(SCHEDULES_PER_FIRING + PER_LOOK);
      // The next look starts what is left and says nothing more is due.
      expect(await fireDue(store, ['report'], (error) => errors.push(error))).toBe(true);
      expect(await runs()).toBe(DUE);
      expect(await fireDue(store, ['report'], (error) => errors.push(error))).toBe(false);
      expect(errors).toEqual([]);
      await worker({ store, workflows: [report] }).drain();
      expect((await all.list({ limit: 1_000 })).every((s) => s.ticksStarted === 1)).toBe(true);
    }, 120_000);
  },
);
