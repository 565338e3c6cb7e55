/**
 * Run events across processes (issue 28, item 4): process A drives a run of a slow agent
 * in a child process; this process (B) follows it through its own connection to the same
 * SQLite file or PostgreSQL schema — from the start and from the middle — and continues
 * it when A is SIGKILLed (a takeover) or SIGSTOPped (A, woken, is a late writer that
 * adds nothing). Every event exactly once, in order; followers end when the run does.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type RunEvent, type Session, type Store, session } from '../../../src/ai/session/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { type SharedDatabase, sharedDatabases } from '../../helpers/shared-database.ts';
import { waitFor } from '../../helpers/wait-for.ts';
import { slowAgent } from './fixtures/slow-agent.ts';

const WORKER = join(import.meta.dirname, 'fixtures', 'events-worker.ts');
const shared = sharedDatabases('run-events-processes');

/** Process A: starts `runId` of a slow agent (7 turns, 60 ms each) in a child process. */
const processA = (db: SharedDatabase, runId: string, leaseMs: number) =>
  nodeChild(WORKER, {
    db: db.db,
    schema: db.schema,
    runId,
    leaseMs,
    steps: 7,
    stepMs: 60,
    tag: 'A',
  });

async function collect(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const all: RunEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Resolves once the run's log holds at least `count` events. */
const logHas = (store: Store, runId: string, count: number) =>
  waitFor(
    async () => ((await store.readEvents(runId, 0, 1000))?.events.length ?? 0) >= count,
    `${count} events of ${runId}`,
  );

/** Continues `runId` in this process once its lease has expired (A is dead or stopped). */
async function takeOver(runs: Session, runId: string) {
  for (;;) {
    const run = await runs.continue(runId);
    if (run.status !== 'running') return run;
    await sleep(50);
  }
}

const label = ({ event }: RunEvent) =>
  event.type === 'run-resumed' ? `run-resumed:${event.reason}` : event.type;

/** Every seq from 1, once, in order. */
const expectContiguous = (events: RunEvent[]) =>
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

/** A test on a new shared database of `engine` and this process's store on it (closed after). */
const onShared =
  (engine: 'sqlite' | 'postgres', body: (db: SharedDatabase, store: Store) => Promise<void>) =>
  async (ctx: { skip(): void }) => {
    const db = await shared(engine);
    if (!db) return ctx.skip();
    const store = db.open();
    try {
      await body(db, store);
    } finally {
      await store.close();
    }
  };

/** Resolves once A has created the run. */
const created = (store: Store, runId: string) =>
  waitFor(
    async () => (await store.get(runId).catch(() => undefined)) !== undefined,
    `run ${runId} to be stored`,
  );

/** B: a session of this process that can continue the slow agent's runs (lease 500 ms). */
const sessionB = (store: Store) =>
  session({
    store,
    agent: slowAgent({ steps: 7, stepMs: 20, tag: 'B' }),
    events: true,
    leaseMs: 500,
  });

describe.each(['sqlite', 'postgres'] as const)('two processes on %s', (engine) => {
  it(
    'B follows the run A drives, from the start and from the middle, each event once, to its end',
    onShared(engine, async (db, store) => {
      const runs = session({ store, events: true }); // B: no agent, it only reads
      const a = processA(db, 'r-follow', 30_000);
      await created(store, 'r-follow');
      const fromStart = collect(runs.events('r-follow', { pollMs: 20 }));
      await logHas(store, 'r-follow', 5);
      const fromMiddle = collect(runs.events('r-follow', { after: 3, pollMs: 20 }));
      expect(await a.done).toEqual({ ok: true, status: 'done' });
      const all = await collect(runs.events('r-follow', { follow: false }));
      expectContiguous(all);
      expect(await fromStart).toEqual(all);
      expect(await fromMiddle).toEqual(all.slice(3));
      expect(all.at(-1)?.event).toMatchObject({
        type: 'finish',
        result: { status: 'done', text: 'done by A' },
      });
      expect(all.filter((e) => e.event.type === 'step-start')).toHaveLength(7);
    }),
    PROCESS_TIMEOUT_MS,
  );

  it(
    'A SIGKILLed mid-run: B takes it over after the lease expires, the log says so, a follower ends',
    onShared(engine, async (db, store) => {
      const runs = sessionB(store);
      const a = processA(db, 'r-kill', 500);
      await created(store, 'r-kill');
      const follower = collect(runs.events('r-kill', { pollMs: 20 }));
      await logHas(store, 'r-kill', 4);
      a.process.kill('SIGKILL');
      expect(await a.done).toEqual({ killed: 'SIGKILL' });
      const run = await takeOver(runs, 'r-kill');
      expect(run.status).toBe('done');
      const all = await collect(runs.events('r-kill', { follow: false }));
      expect(await follower).toEqual(all);
      expectContiguous(all);
      expect(all.map(label).filter((l) => l.startsWith('run-resumed'))).toEqual([
        'run-resumed:takeover',
      ]);
      expect(all.at(-1)?.event).toMatchObject({ type: 'finish', result: { status: 'done' } });
    }),
    PROCESS_TIMEOUT_MS,
  );

  it(
    'A SIGSTOPped past its lease and woken after B took over: A, a late writer, adds nothing',
    onShared(engine, async (db, store) => {
      const runs = sessionB(store);
      const a = processA(db, 'r-late', 500);
      await created(store, 'r-late');
      await logHas(store, 'r-late', 4);
      a.process.kill('SIGSTOP');
      expect((await takeOver(runs, 'r-late')).status).toBe('done');
      const afterB = await collect(runs.events('r-late', { follow: false }));
      a.process.kill('SIGCONT');
      expect(await a.done).toMatchObject({ ok: true, status: 'done' }); // the run as B left it
      const all = await collect(runs.events('r-late', { follow: false }));
      expect(all).toEqual(afterB);
      const marker = all.findIndex((e) => label(e) === 'run-resumed:takeover');
      expect(marker).toBeGreaterThan(0);
      // What B made after the marker is B's (its step-finish events also list A's earlier work).
      const made = all
        .slice(marker)
        .filter((e) => ['text-delta', 'tool-result'].includes(e.event.type));
      expect(made.length).toBeGreaterThan(0);
      expect(JSON.stringify(made)).not.toContain('by A');
    }),
    PROCESS_TIMEOUT_MS,
  );
});
