/**
 * When ticks fall and which a firing starts: DST in a time zone as croner documents it,
 * the catch-up policies bounded by maxCatchUp and by the firing's budget, and a jitter
 * every worker computes alike.
 */
import { describe, expect, it } from 'vitest';
import { jitterOf, planTicks, tickAfter } from '../../src/workflow/schedule-ticks.ts';
import type { ScheduleSettings } from '../../src/workflow/schedule-types.ts';

const at = (iso: string) => Date.parse(iso);
const isos = (ticks: number[]) => ticks.map((t) => new Date(t).toISOString());
/** The `count` ticks after `from`, one after another. */
const following = (settings: ScheduleSettings, from: number, count: number) => {
  const ticks: number[] = [];
  for (let t = from; ticks.length < count; ticks.push(t)) t = tickAfter(settings, t)!;
  return ticks;
};
const base = { catchUp: 'once', maxCatchUp: 10, jitterMs: 0 } as const;

describe('ticks across DST (Europe/Oslo)', () => {
  const daily = (cron: string): ScheduleSettings => ({ ...base, cron, timezone: 'Europe/Oslo' });

  it('a fixed time in the spring-forward gap runs at the first valid time after it, once', () => {
    const ticks = following(daily('30 2 * * *'), at('2026-03-28T00:00:00Z'), 3);
    expect(isos(ticks)).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
  });

  it('a fixed time that occurs twice (fall back) runs once, at the first occurrence', () => {
    const ticks = following(daily('30 2 * * *'), at('2026-10-24T12:00:00Z'), 2);
    expect(isos(ticks)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });
});

describe('planTicks', () => {
  const hourly = (policy: Partial<ScheduleSettings>): ScheduleSettings => ({
    ...base,
    every: 3_600_000,
    anchor: 0,
    ...policy,
  });
  const next = at('2026-06-01T00:00:00Z');
  const now = at('2026-06-01T05:00:10Z'); // ticks 00:00 … 05:00 are due: 6

  it("'all' starts the latest maxCatchUp due ticks, oldest first, and counts the rest missed", () => {
    const plan = planTicks('s', hourly({ catchUp: 'all', maxCatchUp: 4 }), next, now, 256);
    expect(isos(plan.start)).toEqual([
      '2026-06-01T02:00:00.000Z',
      '2026-06-01T03:00:00.000Z',
      '2026-06-01T04:00:00.000Z',
      '2026-06-01T05:00:00.000Z',
    ]);
    expect(plan.missed).toBe(2);
    expect(new Date(plan.next!).toISOString()).toBe('2026-06-01T06:00:00.000Z');
  });

  it("'all' past the firing's budget leaves the rest due for the next firing", () => {
    const plan = planTicks('s', hourly({ catchUp: 'all' }), next, now, 2);
    expect(isos(plan.start)).toEqual(['2026-06-01T00:00:00.000Z', '2026-06-01T01:00:00.000Z']);
    expect(new Date(plan.next!).toISOString()).toBe('2026-06-01T02:00:00.000Z');
  });

  it("'once' starts the latest due tick only", () => {
    const plan = planTicks('s', hourly({}), next, now, 256);
    expect(isos(plan.start)).toEqual(['2026-06-01T05:00:00.000Z']);
    expect(plan.missed).toBe(5);
  });

  it("'skip' starts a tick that is on time and passes over a late one", () => {
    expect(planTicks('s', hourly({ catchUp: 'skip' }), next, now, 256).start.length).toBe(1); // 10 s late: on time
    const late = planTicks('s', hourly({ catchUp: 'skip' }), next, now + 120_000, 256);
    expect(late.start).toEqual([]);
    expect(late.missed).toBe(6);
  });

  it('a cron expression catches up the same way', () => {
    const settings: ScheduleSettings = {
      ...base,
      cron: '0 * * * *',
      catchUp: 'all',
      maxCatchUp: 3,
    };
    expect(isos(planTicks('s', settings, next, now, 256).start)).toEqual([
      '2026-06-01T03:00:00.000Z',
      '2026-06-01T04:00:00.000Z',
      '2026-06-01T05:00:00.000Z',
    ]);
  });
});

describe('jitterOf', () => {
  it('is the same in every worker, within jitterMs, and different across ticks', () => {
    const values = Array.from({ length: 50 }, (_, i) => jitterOf('nightly', i * 60_000, 30_000));
    expect(values).toEqual(
      Array.from({ length: 50 }, (_, i) => jitterOf('nightly', i * 60_000, 30_000)),
    );
    expect(values.every((v) => v >= 0 && v <= 30_000)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(40);
    expect(jitterOf('nightly', 0, 0)).toBe(0);
  });
});
