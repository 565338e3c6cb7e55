/**
 * `ctx.continueAsNew` given input that cannot start a successor, on SQLite and PostgreSQL:
 * bigint, a cycle, a function, a symbol, a throwing toJSON, more than `maxValueBytes`.
 * Each is refused with its code before anything is recorded (the code may catch it and
 * go on), the run does not continue, and no successor exists; input that breaks the
 * workflow's schema ends the run `INVALID_INPUT`, naming the field, with no successor.
 */
import { describe, expect, it } from 'vitest';
import { v } from '../../src/validate/index.ts';
import { type WorkflowError, worker, workflow, workflowRuns } from '../../src/workflow/index.ts';
import { eachWorkflowStore } from '../helpers/workflow-store.ts';

const cycle: Record<string, unknown> = {};
cycle.self = cycle;

const hostile: Array<[string, () => unknown, string, RegExp]> = [
  ['bigint', () => 10n, 'NOT_JSON', /the input of ctx\.continueAsNew must be JSON .*bigint/],
  ['a cycle', () => cycle, 'NOT_JSON', /a cycle/],
  ['a function', () => () => 1, 'NOT_JSON', /function/],
  ['a symbol', () => Symbol('s'), 'NOT_JSON', /symbol/],
  [
    'a throwing toJSON',
    () => ({
      toJSON() {
        throw new Error('toJSON broke');
      },
    }),
    'NOT_JSON',
    /.+/,
  ],
  [
    '2 KiB, over maxValueBytes',
    () => 'x'.repeat(2_048),
    'TOO_LARGE',
    /more than the limit of 1024/,
  ],
];

const loop = workflow({
  id: 'hostile-loop',
  maxValueBytes: 1_024,
  async run(ctx, round: number) {
    const refusals: string[] = [];
    if (round > 0) return refusals; // a successor, which none of the attempts may start
    for (const [, input] of hostile) {
      try {
        await ctx.continueAsNew(input());
      } catch (error) {
        const { code, message } = error as WorkflowError;
        refusals.push(`${code}: ${message}`);
      }
    }
    await ctx.step('after', () => 'the run goes on');
    return refusals;
  },
});

const typed = workflow({
  id: 'hostile-typed-loop',
  input: v.object({ round: v.number() }),
  async run(ctx, { round }) {
    if (round === 0) await ctx.continueAsNew({ round: 'one' } as never);
    return round;
  },
});

describe.each(eachWorkflowStore('hostile-continue'))(
  'ctx.continueAsNew with hostile input (%s)',
  (_engine, open) => {
    it('refuses input that is not JSON or too large before anything is recorded; no successor', async ({
      skip,
    }) => {
      const store = (await open()) ?? skip();
      const { runId } = await loop.start(0, { store });
      await worker({ store, workflows: [loop] }).drain();
      const refusals = (await loop.result(runId, { store })) as string[];
      expect(refusals).toHaveLength(hostile.length);
      for (const [i, [what, , code, message]] of hostile.entries()) {
        expect(refusals[i], what).toMatch(new RegExp(`^${code}: `));
        expect(refusals[i], what).toMatch(message);
      }
      const run = await workflowRuns(store).get(runId);
      expect(run.status).toBe('done');
      expect(run.continuedTo).toBeUndefined();
      expect(await workflowRuns(store).list()).toHaveLength(1);
    });

    it("input the workflow's schema refuses ends the run INVALID_INPUT, naming the field; no successor", async ({
      skip,
    }) => {
      const store = (await open()) ?? skip();
      const { runId } = await typed.start({ round: 0 }, { store });
      await worker({ store, workflows: [typed] }).drain();
      await expect(typed.result(runId, { store })).rejects.toMatchObject({
        code: 'RUN_FAILED',
        message: expect.stringContaining(
          '(ctx.continueAsNew) does not match its schema: round: expected number, received string "one"',
        ),
      });
      const runs = await workflowRuns(store).list();
      expect(runs.map((run) => [run.status, run.error?.code, run.continuedTo])).toEqual([
        ['error', 'INVALID_INPUT', undefined],
      ]);
    });
  },
);
