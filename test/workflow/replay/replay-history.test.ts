/**
 * `exportHistory` and `replayHistory` on histories of real runs, on SQLite and PostgreSQL:
 * replayed against unchanged code they pass at every stage of a run and cause no side
 * effect (no step, tool, model turn or child runs; the store is unchanged); against
 * changed code they fail with `NONDETERMINISM` at the exact entry, with the very message
 * the live replay guard fails the run with once the change is deployed.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  exportHistory,
  postgresWorkflowStore,
  replayHistory,
  sqliteWorkflowStore,
  type WorkflowError,
  type WorkflowStore,
  worker,
} from '../../../src/workflow/index.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { type Change, orderScenario } from './replay-scenario.ts';

type Scenario = ReturnType<typeof orderScenario>;

const dir = tempDir('workflow-replay');
const postgres = postgresForTests();

/** The stores the histories are recorded on: a fresh one per test, or undefined to skip. */
const engines: Array<[string, () => Promise<WorkflowStore | undefined>]> = [
  [
    'SQLite',
    async () => sqliteWorkflowStore(join(dir, `${Math.random().toString(36).slice(2)}.db`)),
  ],
  [
    'PostgreSQL',
    async () => {
      const pg = await postgres();
      return pg && postgresWorkflowStore(pg.url, { schema: await freshSchema(pg.url) });
    },
  ],
];

/** Drives the runs of `scenario` (its model goes on from turn to turn) on `store` until none is due. */
async function drain(store: WorkflowStore, { order, pack }: Scenario): Promise<void> {
  await worker({ store, workflows: [order, pack] }).drain();
}

/** Approves the one pending decision of `runId`. */
async function approve(store: WorkflowStore, runId: string): Promise<void> {
  const [pending] = await store.pending({ runId });
  await orderScenario().order.approve({ runId, decisionId: pending.decisionId }, { store });
}

/** What the store holds of a run, to show a replay changed nothing. */
const snapshot = async (store: WorkflowStore, runId: string) =>
  JSON.stringify([
    await store.get(runId),
    await store.history(runId),
    await store.pending({ runId }),
  ]);

/** Replays `history` with the code of `change`; its outcome and the side effects it had. */
async function replayWith(change: Change, history: unknown) {
  const { order, effects } = orderScenario(change);
  const outcome = await replayHistory(order, history as never).catch(
    (error: WorkflowError) => error,
  );
  return { outcome, effects: [...effects.log, `model requests: ${effects.modelRequests()}`] };
}

const NO_EFFECTS = ['model requests: 0'];

/** A recorded run: the store, the scenario that drives it, its id and its workflow. */
interface Recorded {
  store: WorkflowStore;
  live: Scenario;
  runId: string;
  order: Scenario['order'];
}

/**
 * Opens a store (or skips the test without one), starts a run of the scenario and drives
 * it to its first park (the agent's approval), hands it to `test`, and closes the store.
 */
async function withRecordedRun(
  open: () => Promise<WorkflowStore | undefined>,
  skip: () => void,
  test: (recorded: Recorded) => Promise<void>,
): Promise<void> {
  const store = await open();
  if (!store) return skip();
  try {
    const live = orderScenario();
    const { runId } = await live.order.start({ orderId: 'o-1' }, { store });
    await drain(store, live); // parks on the agent's approval
    await test({ store, live, runId, order: live.order });
  } finally {
    await store.close();
  }
}

describe.each(engines)('replayHistory on histories recorded on %s', (_, open) => {
  it(
    'passes against unchanged code at every stage of a run, with no side effect',
    ({ skip }) =>
      withRecordedRun(open, skip, async ({ store, live, runId, order }) => {
        const stages: Array<[string, unknown, string]> = [];
        stages.push(['approval', await exportHistory(runId, { store }), 'waiting']);
        await approve(store, runId);
        await drain(store, live); // parks on the cool-off timer
        stages.push(['timer', await exportHistory(runId, { store }), 'waiting']);
        for (
          let tries = 0;
          (await order.get(runId, { store })).status !== 'done' && tries < 50;
          tries++
        ) {
          await sleep(100); // until the cool-off timer is due
          await drain(store, live);
        }
        stages.push(['done', await exportHistory(runId, { store }), 'returned']);
        expect((await order.get(runId, { store })).status).toBe('done');
        for (const [stage, history, ended] of stages) {
          const before = await snapshot(store, runId);
          const text = JSON.stringify(history); // as a file holds it
          const { outcome, effects } = await replayWith('none', text);
          expect({ stage, outcome }).toMatchObject({ stage, outcome: { runId, ended } });
          expect(effects).toEqual(NO_EFFECTS);
          expect(await snapshot(store, runId)).toBe(before);
        }
        const [, done] = stages[2] as [string, { entries: Array<{ id: string }> }, string];
        expect(done.entries.map((e) => e.id)).toEqual([
          'reserve',
          '$version:pricing',
          '$now#1',
          '$random#1',
          '$uuid#1',
          '$emit:reserved',
          '$call:lookup',
          'pack',
          'charge',
          '$agent:agent',
          'cool-off',
          'ship',
        ]);
      }),
    60_000,
  );

  it.for<[Change, string]>([
    [
      'step-inserted',
      'the code reached step "validate", which the history does not hold, before step "reserve", which it does',
    ],
    ['step-became-sleep', 'the code reached sleep "charge" where the history holds step "charge"'],
  ])(
    'fails code that %s with NONDETERMINISM at the entry, and the message the deployed change fails the run with',
    { timeout: 60_000 },
    ([change, message], { skip }) =>
      withRecordedRun(open, skip, async ({ store, runId, order }) => {
        const history = await exportHistory(runId, { store });
        const { outcome, effects } = await replayWith(change, history);
        expect(outcome).toMatchObject({ code: 'NONDETERMINISM' });
        const replayed = (outcome as WorkflowError).message;
        expect(replayed).toContain(message);
        expect(effects).toEqual(NO_EFFECTS);
        // The change deployed: the live guard fails the run where the replay failed.
        await approve(store, runId);
        await drain(store, orderScenario(change));
        const failed = await order.get(runId, { store });
        expect(failed.status).toBe('error');
        expect(failed.error).toMatchObject({ code: 'NONDETERMINISM', message: replayed });
      }),
  );

  it(
    'lets code go on past the end of a history, as the live guard does (a step added at the end)',
    ({ skip }) =>
      withRecordedRun(open, skip, async ({ store, runId }) => {
        const { outcome, effects } = await replayWith(
          'step-added-at-end',
          await exportHistory(runId, { store }),
        );
        expect(outcome).toMatchObject({ runId, ended: 'waiting' });
        expect(effects).toEqual(NO_EFFECTS);
      }),
    60_000,
  );
});
