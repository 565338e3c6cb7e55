/**
 * Budgets and costs in a session, across real processes on the SQLite store: a run that
 * spends its budget ends `error` with code `BUDGET_EXCEEDED` and its state kept; a new
 * process continues it with a higher budget to the end, running no tool call twice, and
 * its cost is exactly the sum of its steps and that of an uninterrupted run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunState } from '../../../src/ai/agent/index.ts';
import { addCosts } from '../../../src/ai/model/index.ts';
import {
  memoryStore,
  SessionError,
  type SessionRun,
  session,
  sqliteStore,
} from '../../../src/ai/session/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { budgetAgent } from './fixtures/budget-agent.ts';

const dir = tempDir('budget');

const WORKER = join(import.meta.dirname, 'fixtures', 'budget-worker.ts');

/** Runs the budget worker to its end; its run, or an error when it did not exit 0. */
async function child(command: Record<string, unknown>): Promise<SessionRun> {
  const worker = nodeChild(WORKER, command);
  const answer = await worker.done;
  const code = worker.process.exitCode;
  if (code !== 0) throw new Error(`budget worker exited ${code}: ${worker.output().stderr}`);
  return answer as unknown as SessionRun;
}

const executions = (log: string) =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { id: string }).id);

const sumOfSteps = (state: RunState) =>
  state.steps.reduce<number | 'unknown'>((sum, s) => addCosts(sum, s.usage.cost ?? 'unknown'), 0);

describe('budgets in a session', () => {
  it(
    'a run that spends its budget ends error BUDGET_EXCEEDED, state kept; another process finishes it with a higher budget, no tool twice, cost exact',
    async () => {
      // the same run without a budget, for the cost it must end with
      const reference = await session({
        store: memoryStore(),
        agent: budgetAgent(join(dir, 'reference.jsonl')),
      }).start('Do the work');
      expect(reference.status).toBe('done');
      const expectedCost = reference.state!.usage.cost;
      expect(typeof expectedCost).toBe('number');

      const db = join(dir, 'budget.db');
      const log = join(dir, 'budget.jsonl');
      const base = { db, log, runId: 'run-budget', budget: { maxTokens: 3000 } };

      const stopped = await child({ ...base, op: 'start' });
      expect(stopped.status).toBe('error');
      if (stopped.status !== 'error') throw new Error('unreachable');
      expect(stopped.code).toBe('BUDGET_EXCEEDED');
      expect(stopped.error).toMatch(/spent 3216 tokens of its budget maxTokens: 3000/);
      // the second model turn crossed the budget: it is stored, its tool call never ran
      expect(stopped.state!.steps).toHaveLength(2);
      expect(executions(log)).toEqual(['c0']);

      // a retry with the same budget stops again at once, running nothing
      const again = await child({ ...base, op: 'continue' });
      expect(again).toMatchObject({ status: 'error', code: 'BUDGET_EXCEEDED' });
      expect(executions(log)).toEqual(['c0']);

      const finished = await child({ ...base, op: 'continue', runBudget: { maxTokens: 100_000 } });
      expect(finished.status).toBe('done');
      expect(executions(log)).toEqual(['c0', 'c1', 'c2']);

      const store = sqliteStore(db);
      const stored = (await store.get('run-budget'))!;
      await store.close();
      expect(stored.status).toBe('done');
      expect(stored.errorCode).toBeUndefined();
      expect(stored.state!.steps).toHaveLength(4);
      expect(stored.state!.usage.cost).toBe(sumOfSteps(stored.state!));
      expect(stored.state!.usage.cost).toBe(expectedCost);
      expect(stored.state!.usage.totalTokens).toBe(reference.state!.usage.totalTokens);
    },
    PROCESS_TIMEOUT_MS * 3,
  );

  it(
    'a run suspended for approvals, each approved in a new process, costs exactly the sum of its steps',
    async () => {
      const reference = await session({
        store: memoryStore(),
        agent: budgetAgent(join(dir, 'reference-2.jsonl')),
      }).start('Do the work');
      const db = join(dir, 'approvals.db');
      const log = join(dir, 'approvals.jsonl');
      const base = { db, log, runId: 'run-approvals', approvals: true };
      let run = await child({ ...base, op: 'start' });
      let approvals = 0;
      while (run.status === 'suspended') {
        run = await child({ ...base, op: 'approve', toolCallId: run.pending[0].toolCallId });
        approvals++;
      }
      expect(approvals).toBe(3);
      expect(run.status).toBe('done');
      expect(executions(log)).toEqual(['c0', 'c1', 'c2']);
      const store = sqliteStore(db);
      const stored = (await store.get('run-approvals'))!;
      await store.close();
      expect(stored.state!.usage.cost).toBe(sumOfSteps(stored.state!));
      expect(stored.state!.usage.cost).toBe(reference.state!.usage.cost);
    },
    PROCESS_TIMEOUT_MS * 4,
  );

  it('refuses a bad budget on continue before claiming the run, which stays as it was', async () => {
    const log = join(dir, 'bad.jsonl');
    const runs = session({ store: memoryStore(), agent: budgetAgent(log, { maxTokens: 3000 }) });
    const stopped = await runs.start('Do the work', { runId: 'r1' });
    expect(stopped).toMatchObject({
      status: 'error',
      code: 'BUDGET_EXCEEDED',
      // the next step in a session, not the agent's resume(state, …)
      error: expect.stringMatching(
        /^run "r1" stopped: it spent \d+ tokens of its budget maxTokens: 3000; finish it with a higher budget: continue\("r1", \{ retryErrors: true, budget: \{ maxTokens: … \} \}\)$/,
      ),
    });
    const bad = runs.continue('r1', { retryErrors: true, budget: { maxTokens: -5 } });
    await expect(bad).rejects.toBeInstanceOf(SessionError);
    await expect(bad).rejects.toThrow(/continue: budget\.maxTokens: expected a positive integer/);
    expect(await runs.get('r1')).toMatchObject({ status: 'error', code: 'BUDGET_EXCEEDED' });
    const done = await runs.continue('r1', { retryErrors: true, budget: { maxCost: 1 } });
    expect(done).toMatchObject({ status: 'error', code: 'BUDGET_EXCEEDED' }); // maxTokens still 3000
    const finished = await runs.continue('r1', {
      retryErrors: true,
      budget: { maxTokens: Infinity, maxCost: 1 },
    });
    expect(finished.status).toBe('done');
    expect(executions(log)).toEqual(['c0', 'c1', 'c2']);
  });
});
