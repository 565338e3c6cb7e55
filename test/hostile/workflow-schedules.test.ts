/**
 * Hostile schedule specs given to `schedules().create`, on SQLite and PostgreSQL: control
 * characters and 10 000-character cron expressions, `startAt` at the last date JavaScript
 * holds and past it, NaN / negative / huge numbers, unknown zones, unknown and prototype
 * keys, ids a database cannot keep, input that is not JSON. Each is refused with
 * `INVALID_ARGUMENT` (or `NOT_JSON`) naming the field and what it expects, and leaves the
 * store as it was; the extremes that are valid are kept and fire without a crash.
 */
import { describe, expect, it } from 'vitest';
import {
  schedules,
  type WorkflowStore,
  worker,
  workflow,
  workflowRuns,
} from '../../src/workflow/index.ts';
import { tickAfter } from '../../src/workflow/schedule-ticks.ts';
import { eachWorkflowStore } from '../helpers/workflow-store.ts';

const report = workflow({ id: 'report', run: (ctx) => ctx.step('send', () => 'sent') });
const cron = '0 9 * * *';
const cyclic: Record<string, unknown> = {};
cyclic.self = cyclic;

/** Each hostile spec (without its id and workflow), and the message its refusal gives. */
const refused: Array<[string, Record<string, unknown>, RegExp]> = [
  [
    'a NUL in cron',
    { cron: `${cron}\u0000` },
    /cron: expected a cron expression of at most 256 characters without control characters, received "0 9 \* \* \*\\u0000"/,
  ],
  ['a newline in cron', { cron: '0\n9 * * *' }, /cron: expected .* without control characters/],
  [
    'a 10 000-character cron',
    { cron: `0 9 * * ${'1,'.repeat(4_999)}1` },
    /cron: expected a cron expression of at most 256 characters .* \(10007 characters\)/,
  ],
  ['cron that is not text', { cron: 42 }, /cron: expected a cron expression .*received 42/],
  [
    'startAt past the last date',
    { every: 60_000, startAt: 8.64e15 + 1 },
    /startAt: expected a Date, an ISO 8601 string or epoch milliseconds, received 8640000000000001/,
  ],
  [
    'startAt an invalid Date',
    { every: 60_000, startAt: new Date(Number.NaN) },
    /startAt: expected a Date/,
  ],
  ['startAt NaN', { every: 60_000, startAt: Number.NaN }, /startAt: expected/],
  [
    'a cron at the last date',
    { cron, startAt: 8.64e15 - 1 },
    /cron: expected an expression that fires after now, received "0 9 \* \* \*", which never fires/,
  ],
  [
    'every NaN',
    { every: Number.NaN },
    /every: expected a whole number from 60000 to 9007199254740991, received NaN/,
  ],
  [
    'every negative',
    { every: -60_000 },
    /every: expected a whole number from 60000 .*received -60000/,
  ],
  [
    'every Infinity',
    { every: Number.POSITIVE_INFINITY },
    /every: expected a whole number .*received Infinity/,
  ],
  [
    'every past the last date',
    { every: Number.MAX_SAFE_INTEGER },
    /every: expected an interval whose first tick is a date \(at most 8640000000000000 ms after 1970\), received 9007199254740991/,
  ],
  ['every as a string', { every: '60000' }, /every: expected a whole number/],
  [
    'jitterMs NaN',
    { every: 60_000, jitterMs: Number.NaN },
    /jitterMs: expected a whole number from 0 to 3600000, received NaN/,
  ],
  [
    'jitterMs negative',
    { every: 60_000, jitterMs: -1 },
    /jitterMs: expected a whole number from 0 to 3600000, received -1/,
  ],
  [
    'jitterMs huge',
    { every: 60_000, jitterMs: 1e300 },
    /jitterMs: expected a whole number from 0 to 3600000, received 1e\+300/,
  ],
  [
    'maxCatchUp NaN',
    { every: 60_000, maxCatchUp: Number.NaN },
    /maxCatchUp: expected a whole number from 1 to 1000, received NaN/,
  ],
  [
    'maxCatchUp negative',
    { every: 60_000, maxCatchUp: -5 },
    /maxCatchUp: expected a whole number from 1 to 1000, received -5/,
  ],
  [
    'maxCatchUp huge',
    { every: 60_000, maxCatchUp: 2 ** 53 },
    /maxCatchUp: expected a whole number from 1 to 1000/,
  ],
  [
    'an unknown zone',
    { cron, timezone: 'Mars/Olympus' },
    /timezone: expected an IANA time zone such as "Europe\/Oslo", received "Mars\/Olympus"/,
  ],
  [
    'a zone with a NUL',
    { cron, timezone: 'Europe/Oslo\u0000' },
    /timezone: expected an IANA time zone/,
  ],
  [
    'a 10 000-character zone',
    { cron, timezone: 'E'.repeat(10_000) },
    /timezone: expected an IANA time zone/,
  ],
  [
    'a misspelt key (timeZone)',
    { cron, timeZone: 'Europe/Oslo' },
    /"timeZone": expected one of the fields id, workflow, cron, every, timezone, input, catchUp, maxCatchUp, jitterMs, startAt, received a field of no such name/,
  ],
  [
    'a __proto__ key',
    JSON.parse(`{"cron":"${cron}","__proto__":{"every":60000}}`),
    /"__proto__": expected one of the fields/,
  ],
  ['a constructor key', { cron, constructor: 1 }, /"constructor": expected one of the fields/],
  [
    'catchUp unknown',
    { cron, catchUp: 'every' },
    /catchUp: expected "skip", "once" or "all", received "every"/,
  ],
  ['a bigint input', { cron, input: 10n }, /the input of schedule .* must be JSON .*bigint/],
  ['a cyclic input', { cron, input: cyclic }, /the input of schedule .* must be JSON .*a cycle/],
  [
    'a function input',
    { cron, input: () => 1 },
    /the input of schedule .* must be JSON .*function/,
  ],
];

const refusedIds: Array<[string, unknown, RegExp]> = [
  [
    'a NUL',
    'a\u0000b',
    /id: expected 1 to 200 characters of text without control characters or lone surrogates, received "a\\u0000b"/,
  ],
  ['a newline', 'a\nb', /id: expected 1 to 200 characters of text without control characters/],
  ['a lone surrogate', 'a\uD800', /id: expected .* lone surrogates, received "a\\ud800"/],
  ['an escape code', '\u001b[31mred', /id: expected 1 to 200 characters/],
  ['201 characters', 'i'.repeat(201), /id: expected 1 to 200 characters/],
  ['a number', 7, /id: expected .*received number/],
];

describe.each(eachWorkflowStore('hostile-schedules'))(
  'hostile schedule specs (%s)',
  (_engine, open) => {
    /** A store, or the test skipped; the store must hold no schedule and no run after. */
    const untouched = async (store: WorkflowStore) => {
      expect(await schedules({ store }).list()).toEqual([]);
      expect(await workflowRuns(store).list()).toEqual([]);
    };

    it('refuses each hostile field, naming it and what it expects; nothing is stored', async ({
      skip,
    }) => {
      const store = (await open()) ?? skip();
      const all = schedules({ store });
      for (const [what, fields, message] of refused) {
        await expect(
          all.create({ id: 's', workflow: report, ...fields } as never),
          what,
        ).rejects.toMatchObject({
          code: expect.stringMatching(/^(INVALID_ARGUMENT|NOT_JSON)$/),
          message: expect.stringMatching(message),
        });
      }
      for (const [what, id, message] of refusedIds) {
        await expect(
          all.create({ id, workflow: report, cron } as never),
          what,
        ).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: expect.stringMatching(message),
        });
      }
      for (const name of ['', 'w\u0000', 'bad id', 42]) {
        await expect(all.create({ id: 's', workflow: name, cron } as never)).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: expect.stringMatching(
            /^schedules\.create: workflow: expected a workflow or its id/,
          ),
        });
      }
      for (const spec of [null, [], 'spec']) {
        await expect(all.create(spec as never)).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          message: expect.stringMatching(
            /^schedules\.create: spec: expected an object, received (null|an array|string)$/,
          ),
        });
      }
      await untouched(store);
    });

    it('keeps the extremes that are valid, lists them, and fires them without a crash', async ({
      skip,
    }) => {
      const store = (await open()) ?? skip();
      const all = schedules({ store });
      // The last date JavaScript holds: a first tick in year 275760, and none after it.
      const last = await all.create({
        id: 'last',
        workflow: report,
        every: 60_000,
        startAt: 8.64e15,
      });
      expect(last.nextTick).toBe('+275760-09-13T00:00:00.000Z');
      // The first date: a catch-up from year -271821, bounded like any other.
      await all.create({
        id: 'first',
        workflow: report,
        every: 3_600_000,
        startAt: -8.64e15,
        catchUp: 'all',
        maxCatchUp: 3,
      });
      await worker({ store, workflows: [report] }).drain();
      const runs = await report.list({ store });
      expect(runs).toHaveLength(3);
      expect(runs.every((run) => /^schedule:first:20\d\d-/.test(run.key ?? ''))).toBe(true);
      const first = await all.get('first');
      expect(first.ticksStarted).toBe(3);
      expect(first.ticksMissed).toBeGreaterThan(2_000_000_000);
      expect((await all.list()).map((s) => s.id)).toEqual(['first', 'last']);
      // Once the last tick has fired, there is no next one: no date, no crash.
      const settings = {
        every: 60_000,
        anchor: 8.64e15,
        catchUp: 'once',
        maxCatchUp: 10,
        jitterMs: 0,
      } as const;
      expect(tickAfter(settings, 8.64e15)).toBeUndefined();
      expect(tickAfter(settings, 8.64e15 - 1)).toBe(8.64e15);
    });
  },
);
