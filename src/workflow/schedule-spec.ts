/**
 * A schedule's spec, checked once by `schedules().create` (decision 223): its id, its
 * timing (a cron expression that fires, at most once a minute, or an interval of at
 * least a minute), its time zone, catch-up policy, jitter and first moment. Every
 * refusal is `INVALID_ARGUMENT` naming the field and what it expects.
 */
import { Cron } from 'croner';
import { WorkflowError } from './errors.ts';
import { checkPrintableName, isPrintableText, MAX_NAME_CHARS } from './printable.ts';
import { cronOf, LAST_DATE_MS } from './schedule-ticks.ts';
import type { CatchUpPolicy, ScheduleSettings, ScheduleSpec } from './schedule-types.ts';

/** The shortest time between two ticks of a schedule: a run per tick is a durable record, so at most one a minute. */
export const MIN_TICK_SPACING_MS = 60_000;
/** The default and the largest `maxCatchUp`. */
export const DEFAULT_MAX_CATCH_UP = 10;
export const MAX_CATCH_UP = 1_000;
/** The largest `jitterMs`: an hour. */
export const MAX_JITTER_MS = 3_600_000;
/** The longest schedule id. */
export const MAX_SCHEDULE_ID_CHARS = MAX_NAME_CHARS;
/** The longest cron expression: real ones are under 100 characters, and every firing reads it again. */
export const MAX_CRON_CHARS = 256;

/** The fields of a spec; any other is refused, so a misspelt one (`timeZone`) is not silently ignored. */
const SPEC_FIELDS = [
  'id',
  'workflow',
  'cron',
  'every',
  'timezone',
  'input',
  'catchUp',
  'maxCatchUp',
  'jitterMs',
  'startAt',
] as const satisfies ReadonlyArray<keyof ScheduleSpec>;

const CATCH_UP: readonly CatchUpPolicy[] = ['skip', 'once', 'all'];

const refuse = (field: string, expected: string, received: string): never => {
  throw new WorkflowError(
    'INVALID_ARGUMENT',
    `schedules.create: ${field}: expected ${expected}, received ${received}`,
  );
};

const shown = (value: unknown): string =>
  typeof value === 'string'
    ? JSON.stringify(value.slice(0, 80))
    : typeof value === 'object'
      ? `${value === null ? 'null' : 'an object'}`
      : String(value);

/** The checked timing of `spec`, with the first tick at or after `now` (or `startAt`). */
export function readScheduleSpec(
  spec: ScheduleSpec,
  now: number,
): { id: string; settings: ScheduleSettings; firstTick: number } {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    refuse(
      'spec',
      'an object',
      spec === null ? 'null' : Array.isArray(spec) ? 'an array' : typeof spec,
    );
  }
  const unknown = Object.keys(spec).find(
    (key) => !(SPEC_FIELDS as readonly string[]).includes(key),
  );
  if (unknown !== undefined)
    refuse(
      shown(unknown),
      `one of the fields ${SPEC_FIELDS.join(', ')}`,
      'a field of no such name',
    );
  const { id } = spec;
  checkPrintableName(id, 'schedules.create: id');
  const startAt = readStartAt(spec.startAt, now);
  const settings: ScheduleSettings = {
    ...readTiming(spec, startAt),
    catchUp: readCatchUp(spec.catchUp),
    maxCatchUp: readWhole('maxCatchUp', spec.maxCatchUp ?? DEFAULT_MAX_CATCH_UP, 1, MAX_CATCH_UP),
    jitterMs: readWhole('jitterMs', spec.jitterMs ?? 0, 0, MAX_JITTER_MS),
  };
  const firstTick =
    settings.every !== undefined
      ? firstIntervalTick(settings, startAt)
      : firstCronTick(settings, startAt);
  if (firstTick > LAST_DATE_MS) {
    refuse(
      'every',
      `an interval whose first tick is a date (at most ${LAST_DATE_MS} ms after 1970)`,
      shown(settings.every),
    );
  }
  return { id, settings, firstTick };
}

/** `cron` or `every` (exactly one), with `timezone` for a cron expression only. */
function readTiming(
  spec: ScheduleSpec,
  startAt: number,
): Pick<ScheduleSettings, 'cron' | 'every' | 'timezone' | 'anchor'> {
  const { cron, every, timezone } = spec;
  if ((cron === undefined) === (every === undefined)) {
    refuse('cron / every', 'exactly one of them', cron === undefined ? 'neither' : 'both');
  }
  if (every !== undefined) {
    if (timezone !== undefined)
      refuse('timezone', 'no time zone with `every` (it applies to `cron`)', shown(timezone));
    const ms = readWhole('every', every, MIN_TICK_SPACING_MS, Number.MAX_SAFE_INTEGER);
    return { every: ms, anchor: spec.startAt === undefined ? 0 : startAt };
  }
  if (!isPrintableText(cron) || cron.trim() === '' || cron.length > MAX_CRON_CHARS) {
    refuse(
      'cron',
      `a cron expression of at most ${MAX_CRON_CHARS} characters without control characters`,
      typeof cron === 'string' ? `${shown(cron)} (${cron.length} characters)` : shown(cron),
    );
  }
  if (timezone !== undefined) checkTimezone(timezone);
  const settings = { cron: cron!.trim(), ...(timezone === undefined ? {} : { timezone }) };
  checkCron(settings as ScheduleSettings, startAt);
  return settings;
}

/** `INVALID_ARGUMENT` for a cron expression croner cannot read, that never fires, or that fires more than once a minute. */
function checkCron(settings: ScheduleSettings, startAt: number): void {
  let ticks: Date[] = [];
  try {
    ticks = cronOf(settings).nextRuns(4, new Date(startAt - 1));
  } catch (error) {
    refuse(
      'cron',
      'a cron expression croner reads',
      `${shown(settings.cron)}: ${(error as Error).message}`,
    );
  }
  if (ticks.length === 0)
    refuse(
      'cron',
      'an expression that fires after now',
      `${shown(settings.cron)}, which never fires`,
    );
  for (let i = 1; i < ticks.length; i++) {
    if (ticks[i]!.getTime() - ticks[i - 1]!.getTime() < MIN_TICK_SPACING_MS) {
      refuse(
        'cron',
        'ticks at least a minute apart',
        `${shown(settings.cron)}, which fires more often (a run per tick is a durable record; loop inside one run with ctx.sleep for faster work)`,
      );
    }
  }
}

function checkTimezone(timezone: unknown): void {
  try {
    if (typeof timezone !== 'string') throw new RangeError('not a string');
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    new Cron('0 0 * * *', { timezone }).nextRun();
  } catch {
    refuse('timezone', 'an IANA time zone such as "Europe/Oslo"', shown(timezone));
  }
}

function readCatchUp(value: unknown): CatchUpPolicy {
  if (value === undefined) return 'once';
  if (!CATCH_UP.includes(value as CatchUpPolicy))
    refuse('catchUp', '"skip", "once" or "all"', shown(value));
  return value as CatchUpPolicy;
}

function readWhole(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    refuse(field, `a whole number from ${min} to ${max}`, shown(value));
  }
  return value as number;
}

function readStartAt(value: ScheduleSpec['startAt'], now: number): number {
  if (value === undefined) return now;
  const at =
    value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (typeof at !== 'number' || !Number.isFinite(at) || Math.abs(at) > 8.64e15) {
    refuse('startAt', 'a Date, an ISO 8601 string or epoch milliseconds', shown(value));
  }
  return at;
}

const firstIntervalTick = (settings: ScheduleSettings, startAt: number): number => {
  const anchor = settings.anchor ?? 0;
  return anchor + Math.ceil((startAt - anchor) / settings.every!) * settings.every!;
};

const firstCronTick = (settings: ScheduleSettings, startAt: number): number =>
  cronOf(settings)
    .nextRun(new Date(startAt - 1))!
    .getTime();
