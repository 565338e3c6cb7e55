/**
 * A summary is made once across a crash: a child process runs a session (SQLite file)
 * whose agent summarises its history, and is SIGKILLed right after the summary's
 * checkpoint; a new process continues the run from the store without asking for a
 * summary again.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { session, sqliteStore } from '../../../../src/ai/session/index.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../../helpers/child-process.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { summaryAgent, summaryCalls } from './fixtures/summary-agent.ts';

const WORKER = join(import.meta.dirname, 'fixtures', 'summary-worker.ts');
const dir = tempDir('summary-crash');

const worker = (command: object, env: Record<string, string> = {}) =>
  nodeChild(WORKER, command, env).done;

describe('summarize across a crash (SQLite session)', () => {
  it(
    'writes the summary once: the checkpoint taken before the request carries it to the process that resumes',
    async () => {
      const db = join(dir, 'summary.db');
      const log = join(dir, 'summary.jsonl');
      const runId = 'run-summary';

      const killed = await worker(
        { op: 'start', db, log, runId },
        { FINO_TEST_KILL_AFTER_SUMMARY: '1' },
      );
      expect(killed).toEqual({ killed: 'SIGKILL' });
      expect(summaryCalls(log)).toHaveLength(1);

      const store = sqliteStore(db);
      const stored = (await store.get(runId))!;
      expect(stored.status).toBe('running');
      expect(stored.state!.context?.summary).toEqual({
        text: 'The user asked to read results; results 0 and 1 were read.',
        through: 5,
      });
      // Wait for the dead worker's lease to run out.
      while (((await store.get(runId))!.leaseExpiresAt ?? 0) >= Date.now() - 5) await sleep(25);

      const finished = await worker({ op: 'continue', db, log, runId });
      expect(finished).toEqual({ ok: true, status: 'done' });
      const calls = summaryCalls(log);
      expect(calls).toHaveLength(1);
      const runs = session({ store, agent: summaryAgent(log) });
      const done = (await runs.get(runId))!;
      expect(done).toMatchObject({ status: 'done', text: 'All read.' });
      const state = (await store.get(runId))!.state!;
      expect(state.context?.summary?.through).toBe(5);
      // The state keeps every message: the question, four calls with their results, the answer.
      expect(state.messages).toHaveLength(1 + 2 * 4 + 1);
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});
