/**
 * Guardrails in a session, across real processes on the SQLite store: a worker SIGKILLed
 * while an input guardrail runs, then while a tool's after-guardrail runs, is finished by
 * new processes without asking the model again or running the tool again; a run that
 * trips ends `error` with code GUARDRAIL_TRIPPED, the trip in its stored state.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { RunState } from '../../../src/ai/agent/index.ts';
import {
  type SessionRun,
  type Store,
  session,
  sqliteStore,
} from '../../../src/ai/session/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { leaseExpired } from '../../helpers/lease-expired.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { guardrailAgent, readEntries } from './fixtures/guardrail-agent.ts';

const dir = tempDir('guardrails');
const WORKER = join(import.meta.dirname, 'fixtures', 'guardrail-worker.ts');

/** Polls the store until the run's stored state satisfies `held`. */
async function storedUntil(store: Store, runId: string, held: (state: RunState) => boolean) {
  for (;;) {
    const state = (await store.get(runId))?.state;
    if (state && held(state)) return state;
    await sleep(20);
  }
}

describe('guardrails in a session', () => {
  it(
    'a SIGKILL mid-input-guardrail and mid-tool-guardrail never re-bills the model nor re-runs the tool',
    async () => {
      const db = join(dir, 'kill.db');
      const log = join(dir, 'kill.jsonl');
      const runId = 'run-guard-kill';
      const base = { db, log, runId };
      const store = sqliteStore(db);

      // 1. killed while the input guardrail runs: the model's answer is held, checkpointed
      const first = nodeChild(WORKER, { ...base, op: 'start', mode: 'hang-input' });
      const held = await storedUntil(store, runId, (s) => s.guardrails?.heldTurn !== undefined);
      first.process.kill('SIGKILL');
      expect(await first.done).toEqual({ killed: 'SIGKILL' });
      expect(held.messages).toHaveLength(1); // not released into the conversation
      expect(held.usage.totalTokens).toBe(0); // counted once released
      expect(readEntries(log)).toMatchObject([{ model: 0 }]);
      await leaseExpired(store, runId);

      // 2. a new process: the guardrail passes on the held answer, the tool runs,
      //    and it is killed while the tool's after-guardrail runs
      const second = nodeChild(WORKER, { ...base, op: 'continue', mode: 'hang-after' });
      await storedUntil(store, runId, (s) => (s.guardrails?.heldResults?.length ?? 0) > 0);
      second.process.kill('SIGKILL');
      expect(await second.done).toEqual({ killed: 'SIGKILL' });
      expect(readEntries(log).map((e) => e.model ?? e.tool)).toEqual([0, 'A-1']);
      await leaseExpired(store, runId);

      // 3. a third process finishes: no model turn asked twice, no tool run twice
      const third = nodeChild(WORKER, { ...base, op: 'continue', mode: 'pass' });
      const finished = (await third.done) as unknown as SessionRun;
      expect(finished).toMatchObject({ status: 'done', text: 'Refunded order A-1.' });
      expect(readEntries(log).map((e) => e.model ?? e.tool)).toEqual([0, 'A-1', 1]);
      const state = (await store.get(runId))!.state!;
      expect(state.steps[0].toolResults[0].content).toBe('refunded A-1');
      expect(state.usage.totalTokens).toBe(220); // both turns, each once
      expect(state.guardrails).toBeUndefined();
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it('a run that trips ends error GUARDRAIL_TRIPPED, naming the guardrail; its state records the trip', async () => {
    const store = sqliteStore(join(dir, 'trip.db'));
    const log = join(dir, 'trip.jsonl');
    const runs = session({ store, agent: guardrailAgent(log, 'trip-input') });
    const run = await runs.start('Refund order A-1', { runId: 'run-trip' });
    expect(run).toMatchObject({ status: 'error', code: 'GUARDRAIL_TRIPPED' });
    if (run.status !== 'error') throw new Error('unreachable');
    expect(run.error).toMatch(/input guardrail "input_check" tripped \(output: "fraud"\)/);
    const stored = (await runs.get('run-trip'))!;
    expect(stored.state?.guardrails?.tripped).toEqual([
      { name: 'input_check', kind: 'input', step: 0, output: 'fraud' },
    ]);
    expect(stored.state?.messages).toHaveLength(1); // the answer was discarded
    expect(stored.state?.usage.totalTokens).toBe(110); // and its usage counted
    expect(readEntries(log).filter((e) => e.tool !== undefined)).toEqual([]);
    await store.close();
  });
});
