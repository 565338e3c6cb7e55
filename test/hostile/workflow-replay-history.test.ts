/**
 * A corpus of hand-edited exported histories given to `replayHistory`: cut short, edited
 * under their digest, of an unknown format version, of the wrong shape, resealed with a
 * bad entry, not JSON at all (cycles, bigints, throwing getters, deep nesting). Each is a
 * clear `CORRUPT_RUN` (or `INVALID_ARGUMENT` for the wrong workflow) naming what was
 * wrong — never a crash, never an unhandled rejection — and no tool ever runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import {
  exportHistory,
  memoryWorkflowStore,
  replayHistory,
  type WorkflowHistoryExport,
  worker,
  workflow,
} from '../../src/workflow/index.ts';
import { historyDigest } from '../../src/workflow/replay/history-format.ts';

let runs = 0;
const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: v.object({ orderId: v.string() }),
  requiresApproval: true,
  execute: () => `refunded (${++runs})`,
});
const flow = workflow({
  id: 'refund-flow',
  async run(ctx, orderId: string) {
    const amount = await ctx.step('amount', () => 42);
    await ctx.call(refund, { orderId }, { id: 'refund' });
    return amount;
  },
});

let exported: WorkflowHistoryExport;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  const store = memoryWorkflowStore();
  const { runId } = await flow.start('o-1', { store });
  await worker({ store, workflows: [flow] }).drain(); // waits for the approval
  exported = await exportHistory(runId, { store });
  await store.close();
});

afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

/** A copy of the history, changed by `edit`, its digest made again to match (a forger's edit). */
function resealed(edit: (history: Record<string, any>) => void): Record<string, unknown> {
  const history = structuredClone(exported) as Record<string, any>;
  edit(history);
  return { ...history, digest: historyDigest(history) };
}

/** A copy changed by `edit`, its digest left as exported (a hand edit). */
function edited(edit: (history: Record<string, any>) => void): Record<string, unknown> {
  const history = structuredClone(exported) as Record<string, any>;
  edit(history);
  return history;
}

const cyclic = (): unknown => {
  const history: Record<string, unknown> = { ...exported };
  history.self = history;
  return history;
};

const deep = (): unknown => {
  let value: unknown = 0;
  for (let i = 0; i < 100_000; i++) value = [value];
  return value;
};

const corpus: Array<[string, () => unknown, RegExp]> = [
  ['the file cut short', () => JSON.stringify(exported).slice(0, 200), /not JSON .*cut short/],
  ['an empty file', () => '', /not JSON/],
  ['the last entry cut off', () => edited((h) => h.entries.pop()), /digest does not match/],
  [
    "a step's value edited",
    () =>
      edited((h) => {
        h.entries[0].value = 41;
      }),
    /digest does not match/,
  ],
  [
    'the input edited',
    () =>
      edited((h) => {
        h.run.input = 'o-2';
      }),
    /digest does not match/,
  ],
  ['no digest', () => edited((h) => delete h.digest), /digest does not match/],
  [
    'an unknown format version',
    () => resealed((h) => (h.version = 2)),
    /format version \(number 2\) is not one this fino reads \(it reads version 1\)/,
  ],
  [
    'another format',
    () => resealed((h) => (h.format = 'temporal')),
    /expected an object of format "fino.workflow.history"/,
  ],
  ['null', () => null, /expected an object of format/],
  ['a number', () => 42, /expected an object of format/],
  ['an array', () => [exported], /expected an object of format/],
  ['a cycle', cyclic, /not JSON/],
  ['a bigint', () => ({ ...exported, n: 1n }), /not JSON/],
  [
    'a getter that throws',
    () => ({
      ...exported,
      get run() {
        throw new Error('boom');
      },
    }),
    /not JSON \(boom\)/,
  ],
  [
    'entries not an array',
    () => resealed((h) => (h.entries = { 0: h.entries[0] })),
    /entries are not an array/,
  ],
  ['a run that is not an object', () => resealed((h) => (h.run = 'run')), /its run is string/],
  ['a run without workflowId', () => resealed((h) => delete h.run.workflowId), /no workflowId/],
  ['an unknown status', () => resealed((h) => (h.run.status = 'paused')), /status string "paused"/],
  [
    'cancelRequested not a boolean',
    () => resealed((h) => (h.run.cancelRequested = 'no')),
    /cancelRequested/,
  ],
  ['an entry that is null', () => resealed((h) => (h.entries[0] = null)), /entry 1 is null/],
  ['an entry without id', () => resealed((h) => delete h.entries[0].id), /entry 1 has no id/],
  [
    'an unknown kind',
    () => resealed((h) => (h.entries[0].kind = 'teleport')),
    /kind "teleport" is not one fino records/,
  ],
  [
    'a seq as text',
    () => resealed((h) => (h.entries[0].seq = '1')),
    /seq string "1", not a whole number/,
  ],
  ['a seq of 0', () => resealed((h) => (h.entries[0].seq = 0)), /seq number 0/],
  [
    'a repeated id',
    () => resealed((h) => (h.entries[1].id = h.entries[0].id)),
    /repeats the id "amount"/,
  ],
  ['a repeated seq', () => resealed((h) => (h.entries[1].seq = h.entries[0].seq)), /repeats seq 1/],
  ['a state of "maybe"', () => resealed((h) => (h.entries[0].state = 'maybe')), /state "maybe"/],
  [
    'startedAt as text',
    () => resealed((h) => (h.entries[0].startedAt = 'today')),
    /startedAt is not a number/,
  ],
  [
    'an error of the wrong shape',
    () => resealed((h) => (h.entries[0].error = 'failed')),
    /its error "failed"/,
  ],
  [
    'a value nested 100 000 deep',
    () => resealed((h) => (h.entries[0].value = deep())),
    /not JSON|nested/,
  ],
];

describe('replayHistory refuses hand-edited histories with CORRUPT_RUN', () => {
  it('the corpus is the history of a real run, and it replays as exported', async () => {
    expect(exported.entries.map((e) => [e.id, e.kind, e.state])).toEqual([
      ['amount', 'step', 'done'],
      ['refund', 'call', 'waiting'],
    ]);
    await expect(replayHistory(flow, exported)).resolves.toMatchObject({ ended: 'waiting' });
  });

  it.for(corpus)('%s', async ([, make, message]) => {
    const error = await replayHistory(flow, make() as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'WorkflowError', code: 'CORRUPT_RUN' });
    expect((error as Error).message).toMatch(/^the workflow history cannot be replayed: /);
    expect((error as Error).message).toMatch(message);
    expect(runs).toBe(0);
  });

  it('a history of another workflow, or no workflow: INVALID_ARGUMENT', async () => {
    const other = workflow({ id: 'other', run: () => 1 });
    await expect(replayHistory(other, exported)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('the history is of workflow "refund-flow"'),
    });
    await expect(replayHistory({} as never, exported)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('a resealed waiting call that names no decision parks: the tool never runs', async () => {
    const forged = resealed((h) => {
      h.entries[1].value = { round: 0 };
    });
    let looked = 0;
    const lookup = tool({
      name: 'lookup',
      description: 'Look an order up (no approval needed).',
      parameters: v.object({ orderId: v.string() }),
      execute: () => `looked up (${++looked})`,
    });
    const withoutApproval = workflow({
      id: 'refund-flow',
      async run(ctx, orderId: string) {
        await ctx.step('amount', () => 42);
        return ctx.call(lookup, { orderId }, { id: 'refund' });
      },
    });
    await expect(replayHistory(withoutApproval, forged as never)).resolves.toMatchObject({
      ended: 'waiting',
    });
    expect(looked).toBe(0);
  });
});
