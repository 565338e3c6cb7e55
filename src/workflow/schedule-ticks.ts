/**
 * When a schedule ticks (decision 222): cron expressions through `croner` (time zones
 * and DST as croner documents them) and fixed intervals, each tick's jitter (the same
 * in every worker), and which due ticks a firing starts under the catch-up policy.
 */
import { createHash } from 'node:crypto';
import { Cron } from 'croner';
import type { ScheduleSettings } from './schedule-types.ts';

/** A late tick within this many ms of its due time is on time (not missed) for `catchUp: 'skip'`. */
export const ON_TIME_MS = 60_000;

/** The last moment a JavaScript `Date` holds (year 275760): a tick past it has no ISO time for its run key. */
export const LAST_DATE_MS = 8.64e15;

/** The cron expression of `settings` as croner reads it (never scheduled: only its dates are asked). */
export const cronOf = (settings: ScheduleSettings): Cron =>
  new Cron(settings.cron!, settings.timezone ? { timezone: settings.timezone } : {});

/**
 * The first tick strictly after `at` (epoch ms); `undefined` when the cron expression
 * fires no more, or the interval's next tick is past the last date (year 275760).
 */
export function tickAfter(settings: ScheduleSettings, at: number): number | undefined {
  if (settings.every !== undefined) {
    const anchor = settings.anchor ?? 0;
    const next = anchor + (Math.floor((at - anchor) / settings.every) + 1) * settings.every;
    return next <= LAST_DATE_MS ? next : undefined;
  }
  return cronOf(settings).nextRun(new Date(at))?.getTime();
}

/** The latest `count` ticks at or before `at`, oldest first. */
function ticksUpTo(settings: ScheduleSettings, at: number, count: number): number[] {
  if (settings.every !== undefined) {
    const anchor = settings.anchor ?? 0;
    if (at < anchor) return [];
    const last = anchor + Math.floor((at - anchor) / settings.every) * settings.every;
    const ticks: number[] = [];
    for (let t = last; ticks.length < count && t >= anchor; t -= settings.every) ticks.unshift(t);
    return ticks;
  }
  return cronOf(settings)
    .previousRuns(count, new Date(at + 1))
    .map((date) => date.getTime())
    .reverse();
}

/** The jitter of one tick: from 0 to `jitterMs`, derived from the schedule and the tick so every worker agrees. */
export function jitterOf(scheduleId: string, tick: number, jitterMs: number): number {
  if (jitterMs === 0) return 0;
  const digest = createHash('sha256').update(`${scheduleId}:${tick}`).digest();
  return digest.readUIntBE(0, 6) % (jitterMs + 1);
}

/** What one firing of a due schedule does: the ticks it starts, how many it passes over, the next tick. */
export interface TickPlan {
  start: number[];
  missed: number;
  /** The next tick to fire (may still be due when a long catch-up goes on at the next firing). */
  next: number | undefined;
}

/**
 * Plans a firing at `now` of a schedule whose earliest unfired tick is `nextTick`, at
 * most `budget` ticks started: `'skip'` starts the latest due tick only while it is on
 * time, `'once'` the latest due tick, `'all'` the latest `maxCatchUp` due ticks, oldest
 * first (the rest of a catch-up longer than `budget` at the next firing).
 */
export function planTicks(
  scheduleId: string,
  settings: ScheduleSettings,
  nextTick: number,
  now: number,
  budget: number,
): TickPlan {
  const window = settings.catchUp === 'all' ? settings.maxCatchUp : 1;
  const due = ticksUpTo(settings, now, window).filter((tick) => tick >= nextTick);
  const latest = due.at(-1);
  if (latest === undefined) return { start: [], missed: 0, next: tickAfter(settings, now) };
  const missedBefore = countMissed(settings, nextTick, due[0]!);
  if (settings.catchUp === 'skip') {
    const onTime = now - (latest + jitterOf(scheduleId, latest, settings.jitterMs)) < ON_TIME_MS;
    return {
      start: onTime ? [latest] : [],
      missed: missedBefore + (onTime ? 0 : 1),
      next: tickAfter(settings, now),
    };
  }
  const start = due.slice(0, Math.max(1, budget));
  const rest = due[start.length];
  return {
    start,
    missed: missedBefore,
    next: rest !== undefined ? rest : tickAfter(settings, now),
  };
}

/** Ticks from `from` (included) to `to` (excluded) that a catch-up passes over; counted up to 1 000 for a cron expression. */
function countMissed(settings: ScheduleSettings, from: number, to: number): number {
  if (from >= to) return 0;
  if (settings.every !== undefined) return Math.round((to - from) / settings.every);
  return cronOf(settings)
    .previousRuns(1_000, new Date(to))
    .filter((tick) => tick.getTime() >= from).length;
}
