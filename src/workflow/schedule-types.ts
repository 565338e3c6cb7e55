/**
 * The records of workflow schedules (decision 221): what a caller asks for
 * (`ScheduleSpec`), the settings a store keeps of it, and a schedule as a store returns it.
 */
import type { AnyWorkflow } from './workflow.ts';

/** What to do with the ticks a schedule missed while no worker ran (see docs/workflow.md). */
export type CatchUpPolicy = 'skip' | 'once' | 'all';

/** A schedule to create: which workflow it starts, when, with what input. */
export interface ScheduleSpec {
  /** Names the schedule (at most 200 characters); each tick's run has the key `schedule:<id>:<tick ISO>`. */
  id: string;
  /** The workflow each tick starts (its id, or the definition: then `input` is checked against its schema). */
  workflow: AnyWorkflow | string;
  /** A cron expression (5 fields, or 6 with seconds, or 7 with years), ticks at least a minute apart. */
  cron?: string;
  /** Or a tick every this many ms (at least 60 000), counted from `startAt` (default: the Unix epoch). */
  every?: number;
  /** The IANA time zone the cron expression is read in (default UTC). */
  timezone?: string;
  /** The input of every run it starts (JSON). */
  input?: unknown;
  /** Missed ticks after downtime: `'skip'` them, run `'once'` for the latest (default), or run `'all'` (bounded by `maxCatchUp`). */
  catchUp?: CatchUpPolicy;
  /** With `catchUp: 'all'`, the most missed ticks started (the latest ones; default 10, at most 1 000). */
  maxCatchUp?: number;
  /** Delays each tick's run by up to this many ms (default 0, at most 3 600 000), the same delay in every worker. */
  jitterMs?: number;
  /** The first moment a tick may fall on (default: now); an earlier one makes the ticks since then missed ones. */
  startAt?: Date | string | number;
}

/** A schedule's timing as a store keeps it (JSON in its row). */
export interface ScheduleSettings {
  cron?: string;
  every?: number;
  timezone?: string;
  /** For `every`: ticks fall on `anchor + k × every`. */
  anchor?: number;
  catchUp: CatchUpPolicy;
  maxCatchUp: number;
  jitterMs: number;
  /** The signal names its workflow declares, copied to each run it starts. */
  signals?: string[];
}

/** A new schedule as the lifecycle hands it to a store. */
export interface NewSchedule {
  scheduleId: string;
  workflowId: string;
  settings: ScheduleSettings;
  /** The input as JSON text (absent for `undefined`). */
  input?: string;
  /** The first tick (epoch ms). */
  firstTick: number;
}

/** A schedule as a store returns it. */
export interface StoredSchedule {
  scheduleId: string;
  workflowId: string;
  settings: ScheduleSettings;
  input?: string;
  paused: boolean;
  /** The next tick not yet fired (epoch ms); absent when the cron expression fires no more. */
  nextTick?: number;
  /** When a worker fires `nextTick`: the tick plus its jitter. */
  dueAt?: number;
  /** The last tick that started a run, and that run. */
  lastTick?: number;
  lastRunId?: string;
  /** Ticks that started a run, and ticks passed over by the catch-up policy. */
  fired: number;
  missed: number;
  createdAt: number;
  updatedAt: number;
}
