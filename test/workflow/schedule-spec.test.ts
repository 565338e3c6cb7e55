/**
 * A schedule's spec is checked before anything is stored: a cron expression that never
 * fires or fires more than once a minute, an interval under a minute, an unknown time
 * zone, and out-of-range catch-up and jitter are refused, naming the field.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_CATCH_UP,
  MAX_JITTER_MS,
  MIN_TICK_SPACING_MS,
  readScheduleSpec,
} from '../../src/workflow/schedule-spec.ts';

const now = Date.parse('2026-06-01T12:00:30.000Z');
const read = (spec: Record<string, unknown>) =>
  readScheduleSpec({ id: 's', workflow: 'w', ...spec } as never, now);
const refused = (spec: Record<string, unknown>, message: RegExp) =>
  expect(() => read(spec)).toThrow(
    expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(message) }),
  );

describe('readScheduleSpec', () => {
  it('reads a cron expression in a time zone, with defaults, and its first tick', () => {
    const { settings, firstTick } = read({ cron: '0 9 * * *', timezone: 'Europe/Oslo' });
    expect(settings).toEqual({
      cron: '0 9 * * *',
      timezone: 'Europe/Oslo',
      catchUp: 'once',
      maxCatchUp: 10,
      jitterMs: 0,
    });
    expect(new Date(firstTick).toISOString()).toBe('2026-06-02T07:00:00.000Z'); // 09:00 in Oslo (summer time)
  });

  it('anchors an interval on the epoch, or on startAt', () => {
    expect(new Date(read({ every: 3_600_000 }).firstTick).toISOString()).toBe(
      '2026-06-01T13:00:00.000Z',
    );
    const startAt = '2026-06-01T11:59:10.000Z';
    const { settings, firstTick } = read({ every: 60_000, startAt });
    expect(settings.anchor).toBe(Date.parse(startAt));
    expect(firstTick).toBe(Date.parse(startAt));
  });

  it('refuses a cron expression that never fires', () => {
    refused(
      { cron: '0 0 30 2 *' },
      /cron: expected an expression that fires after now, received "0 0 30 2 \*", which never fires/,
    );
    refused({ cron: '0 0 0 1 1 * 2020' }, /which never fires/);
  });

  it('refuses a cron expression that fires every second, or more than once a minute', () => {
    refused(
      { cron: '* * * * * *' },
      /cron: expected ticks at least a minute apart, received "\* \* \* \* \* \*", which fires more often/,
    );
    refused({ cron: '0,30 * * * * *' }, /at least a minute apart/);
    expect(read({ cron: '15 * * * * *' }).settings.cron).toBe('15 * * * * *'); // once a minute, at :15
  });

  it('refuses an interval under a minute, and cron with every, or neither', () => {
    refused(
      { every: 1_000 },
      new RegExp(`every: expected a whole number from ${MIN_TICK_SPACING_MS}`),
    );
    refused(
      { cron: '* * * * *', every: 60_000 },
      /cron \/ every: expected exactly one of them, received both/,
    );
    refused({}, /received neither/);
  });

  it('refuses an unreadable cron expression, an unknown time zone, and a time zone with every', () => {
    refused(
      { cron: 'every day' },
      /cron: expected a cron expression croner reads, received "every day": /,
    );
    refused(
      { cron: '0 9 * * *', timezone: 'Mars/Base' },
      /timezone: expected an IANA time zone such as "Europe\/Oslo", received "Mars\/Base"/,
    );
    refused({ every: 60_000, timezone: 'UTC' }, /timezone: expected no time zone with `every`/);
  });

  it('refuses catch-up, jitter, id and startAt out of range', () => {
    refused(
      { cron: '* * * * *', catchUp: 'some' },
      /catchUp: expected "skip", "once" or "all", received "some"/,
    );
    refused(
      { cron: '* * * * *', maxCatchUp: MAX_CATCH_UP + 1 },
      /maxCatchUp: expected a whole number from 1 to 1000/,
    );
    refused(
      { cron: '* * * * *', jitterMs: MAX_JITTER_MS + 1 },
      /jitterMs: expected a whole number from 0 to 3600000/,
    );
    refused(
      { cron: '* * * * *', id: '' },
      /id: expected 1 to 200 characters of text without control characters or lone surrogates/,
    );
    refused(
      { cron: '* * * * *', startAt: 'yesterday' },
      /startAt: expected a Date, an ISO 8601 string or epoch milliseconds/,
    );
  });
});
