/**
 * Durable run events in one process (`session({ events })`, `Session.events`): what a
 * run with a tool and an approval records, followers woken at once, the limits, a late
 * writer, an unreadable stored event, forgetting a thread. Every store: memory, SQLite,
 * PostgreSQL. Two processes: run-events.processes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { type RunEvent, SessionError, type Store, session } from '../../../src/ai/session/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { storeSqlOf } from '../../../src/internal/sql/index.ts';
import { v } from '../../../src/validate/index.ts';
import { sessionStores, withStore } from '../../helpers/session-stores.ts';

const open = sessionStores('run-events');

const remove = tool({
  name: 'remove_file',
  description: 'Delete a file.',
  parameters: v.object({ path: v.string() }),
  requiresApproval: true,
  execute: async ({ path }: { path: string }) => `deleted ${path}`,
});

const approvalAgent = () =>
  agent({
    model: scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'remove_file', args: { path: 'old.log' } }] },
      'Deleted old.log.',
    ]),
    tools: [remove],
  });

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const all: RunEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const types = (events: RunEvent[]) =>
  events.map(({ event }) =>
    event.type === 'run-resumed' ? `run-resumed:${event.reason}` : event.type,
  );

/** A model whose turns wait for the test: `release()` lets the next turn answer. */
function gatedModel(turns: string[]) {
  const waiting: (() => void)[] = [];
  const gates = turns.map(
    () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
      }),
  );
  let released = 0;
  const model = scriptedModel(
    turns.map((text, i) => async () => {
      await gates[i];
      return text;
    }),
  );
  return { model, release: () => waiting[released++]() };
}

describe.each([
  ['memory', open.memory],
  ['sqlite', open.sqlite],
  ['postgres', open.postgres],
])('run events on the %s store', (_name, openStore) => {
  it(
    'records a run with a tool and an approval, complete and in order, across its drives',
    withStore(openStore, async (store) => {
      const runs = session({ store, agent: approvalAgent(), events: true });
      const first = await runs.start('Delete old.log');
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      const before = await collect(runs.events(first.runId));
      expect(types(before)).toEqual(['step-start', 'tool-call', 'tool-pending', 'finish']);
      await runs.approve(first.pending[0].token!, { by: 'ana' });
      const all = await collect(runs.events(first.runId));
      expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
      expect(all.slice(0, before.length)).toEqual(before);
      expect(types(all).slice(before.length)).toEqual([
        'run-resumed:decision',
        'tool-result',
        'step-finish',
        'step-start',
        'text-delta',
        'step-finish',
        'finish',
      ]);
      const last = all.at(-1)!.event;
      expect(last).toMatchObject({
        type: 'finish',
        result: { status: 'done', text: 'Deleted old.log.' },
      });
      expect(JSON.stringify(last)).not.toContain('"messages"'); // the log keeps no state
      expect(all.every((e) => e.runId === first.runId && !Number.isNaN(Date.parse(e.at)))).toBe(
        true,
      );
      const tail = await collect(runs.events(first.runId, { after: 6 }));
      expect(tail).toEqual(all.slice(6));
    }),
  );

  it(
    'wakes a follower in this process at once, and ends it when the run is done',
    withStore(openStore, async (store) => {
      const { model, release } = gatedModel(['one']);
      const runs = session({ store, agent: agent({ model }), events: true });
      const started = runs.start('Hi', { runId: 'live-1' });
      const seen: string[] = [];
      // A poll this long never fires in the test: only the in-process notice wakes it.
      const follower = (async () => {
        for (;;) {
          try {
            for await (const { event } of runs.events('live-1', { pollMs: 60_000 })) {
              seen.push(event.type === 'text-delta' ? event.text : event.type);
            }
            return;
          } catch (error) {
            if (!(error instanceof SessionError && error.code === 'NOT_FOUND')) throw error;
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        }
      })();
      await until(() => seen.includes('step-start'));
      expect(seen).toEqual(['step-start']);
      release();
      await started;
      await follower;
      expect(seen).toEqual(['step-start', 'one', 'step-finish', 'finish']);
    }),
  );

  it(
    'stops at maxEvents with one events-truncated marker, and still records finish',
    withStore(openStore, async (store) => {
      const replies = Array.from({ length: 30 }, (_, i) => ({
        toolCalls: [{ id: `t${i}`, name: 'noop', args: {} }],
      }));
      const noop = tool({
        name: 'noop',
        description: 'No-op.',
        parameters: v.object({}),
        execute: () => 'ok',
      });
      const runs = session({
        store,
        agent: agent({
          model: scriptedModel([...replies, 'done']),
          tools: [noop],
          stopWhen: () => false,
        }),
        events: { maxEvents: 12 },
      });
      const run = await runs.start('Go');
      expect(run.status).toBe('done');
      const all = await collect(runs.events(run.runId));
      expect(all.length).toBe(13);
      expect(types(all).slice(10)).toEqual(['tool-result', 'events-truncated', 'finish']);
    }),
  );

  it(
    'stops at maxBytes the same way: the log stays within its bytes',
    withStore(openStore, async (store) => {
      const long = 'x'.repeat(2_000);
      const runs = session({
        store,
        agent: agent({ model: scriptedModel([long]) }),
        events: { maxBytes: 1_000 },
      });
      const run = await runs.start('Go');
      const all = await collect(runs.events(run.runId));
      expect(types(all)).toEqual(['step-start', 'events-truncated', 'finish']);
      const bytes = all
        .filter((e) => e.event.type !== 'finish')
        .reduce((sum, e) => sum + JSON.stringify(e.event).length, 0);
      expect(bytes).toBeLessThanOrEqual(1_000);
    }),
  );

  it(
    'writes nothing for a worker that does not hold the run',
    withStore(openStore, async (store) => {
      const runs = session({ store, agent: approvalAgent(), events: true });
      const run = await runs.start('Delete old.log');
      const before = await collect(runs.events(run.runId));
      const late = { at: Date.now(), type: 'step-start', json: '{"type":"step-start","step":9}' };
      const limits = { maxEvents: 100, maxBytes: 100_000 };
      expect(await store.appendEvents(run.runId, 'someone-else', [late], limits)).toBe(false);
      expect(await collect(runs.events(run.runId))).toEqual(before);
    }),
  );

  it(
    'reports an unreadable stored event as CORRUPT_RUN with the seq to read on after',
    withStore(openStore, async (store) => {
      const runs = session({ store, agent: approvalAgent(), events: true });
      const run = await runs.start('Delete old.log');
      await corruptEvent(store, run.runId, 2);
      const read: RunEvent[] = [];
      const failure = await (async () => {
        for await (const event of runs.events(run.runId)) read.push(event);
      })().catch((error: unknown) => error);
      expect(read.map((e) => e.seq)).toEqual([1]);
      expect(failure).toBeInstanceOf(SessionError);
      expect((failure as SessionError).code).toBe('CORRUPT_RUN');
      expect((failure as SessionError).message).toContain('events(runId, { after: 2 })');
      const rest = await collect(runs.events(run.runId, { after: 2 }));
      expect(rest.map((e) => e.seq)).toEqual([3, 4]);
    }),
  );

  it(
    'deletes a run’s events with its thread',
    withStore(openStore, async (store) => {
      const runs = session({ store, agent: agent({ model: scriptedModel(['Hi']) }), events: true });
      const run = await runs.start('Hello', { threadId: 'th-1' });
      expect((await collect(runs.events(run.runId))).length).toBe(4);
      await runs.forget('th-1');
      const sql = storeSqlOf(store)!;
      const rows = await sql.driver.query(
        `SELECT seq FROM ${sql.driver.table('run_events')} WHERE run_id = ?`,
        [run.runId],
      );
      expect(rows).toEqual([]);
    }),
  );
});

describe('batching', () => {
  it(
    'writes a turn of 200 text deltas in a few transactions, not one per delta',
    withStore(open.memory, async (store) => {
      const base = scriptedModel(['x'.repeat(200)]);
      const model = {
        ...base,
        async *stream(request: Parameters<typeof base.generate>[0]) {
          const result = await base.generate(request);
          for (let i = 0; i < 200; i++) yield { type: 'text-delta' as const, text: 'x' };
          yield { type: 'stop' as const, result };
        },
      };
      let appends = 0;
      const append = store.appendEvents.bind(store);
      store.appendEvents = (...args) => {
        appends++;
        return append(...args);
      };
      const runs = session({ store, agent: agent({ model }), events: true });
      const run = await runs.start('Hi');
      const all = await collect(runs.events(run.runId));
      expect(all.filter((e) => e.event.type === 'text-delta')).toHaveLength(200);
      expect(appends).toBeLessThanOrEqual(3);
    }),
  );
});

describe('events() options and ends', () => {
  it(
    'refuses bad options and unknown runs, and records nothing without the option',
    withStore(open.memory, async (store) => {
      const runs = session({ store, agent: agent({ model: scriptedModel(['Hi']) }) });
      const run = await runs.start('Hello');
      expect(await collect(runs.events(run.runId))).toEqual([]);
      await expect(collect(runs.events('nope'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(() => runs.events(run.runId, { pollMs: 1 })).toThrow(
        'events: pollMs: expected milliseconds from 10 to 60000, received number 1',
      );
      expect(() => runs.events(run.runId, { after: -1 })).toThrow('events: after: expected');
      expect(() => runs.events(run.runId, { folow: true } as never)).toThrow(
        'did you mean "follow"',
      );
      expect(() => session({ store, events: { maxEvents: 0 } })).toThrow(
        'session: events: maxEvents: expected a whole number ≥ 1, received number 0',
      );
    }),
  );

  it(
    'ends a follower on abort and on break, leaving nothing waiting',
    withStore(open.memory, async (store) => {
      const { model, release } = gatedModel(['one']);
      const runs = session({ store, agent: agent({ model }), events: true });
      const started = runs.start('Hi', { runId: 'r-abort' });
      await until(async () => (await store.get('r-abort')) !== undefined);
      const controller = new AbortController();
      const aborted = collect(
        runs.events('r-abort', { signal: controller.signal, pollMs: 60_000 }),
      );
      setTimeout(() => controller.abort(), 20);
      await aborted; // ends without an error
      for await (const _ of runs.events('r-abort', { pollMs: 60_000 })) break;
      release();
      expect((await started).status).toBe('done');
    }),
  );
});

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Overwrites the stored event `seq` of `runId` with text that is not JSON. */
async function corruptEvent(store: Store, runId: string, seq: number): Promise<void> {
  const { driver } = storeSqlOf(store)!;
  await driver.query(
    `UPDATE ${driver.table('run_events')} SET event = ? WHERE run_id = ? AND seq = ?`,
    ['{not json', runId, seq],
  );
}
