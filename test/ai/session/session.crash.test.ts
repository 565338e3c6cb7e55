/**
 * Crash safety and exactly-once approval across real processes, on the SQLite store:
 * children are killed with SIGKILL in the middle of a step, or race to approve.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SessionRun, session, sqliteStore } from '../../../src/ai/session/index.ts';
import { PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { leaseExpired } from '../../helpers/lease-expired.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { worker } from './child.ts';
import { readLog, shopAgent } from './fixtures/shop-agent.ts';

const dir = tempDir('crash');

describe('session across processes (SQLite)', () => {
  it(
    'loses nothing committed when a worker is SIGKILLed mid-step; a new process finishes without re-running stored results',
    async () => {
      const db = join(dir, 'crash.db');
      const log = join(dir, 'crash.jsonl');
      const runId = 'run-crash';
      const base = { db, log, plan: 'pack', runId };

      const killed = await worker(
        { ...base, op: 'start', leaseMs: 300 },
        { FINO_TEST_KILL_IN: 'pack' },
      ).done;
      expect(killed).toEqual({ killed: 'SIGKILL' });

      const store = sqliteStore(db);
      const stored = (await store.get(runId))!;
      expect(stored.status).toBe('running');
      // The charge result was checkpointed before pack started; pack's never was.
      expect(stored.state!.turn!.results.map((r) => r.toolCallId)).toEqual(['charge_1']);
      await leaseExpired(store, runId);

      const finished = await worker({ ...base, op: 'continue' }).done;
      expect(finished).toEqual({ ok: true, result: { runId, status: 'done' } });
      const executions = readLog(log);
      expect(executions.map((e) => e.tool)).toEqual(['charge', 'pack', 'pack']);
      // pack was in flight when its worker died: it runs again, with the same idempotency key.
      expect(executions[1].key).toBe(`${runId}:pack_1`);
      expect(executions[2].key).toBe(executions[1].key);
      expect(executions[2].pid).not.toBe(executions[1].pid);
      const done = (await session({ store, agent: shopAgent('pack', log) }).get(runId))!;
      expect(done).toMatchObject({ status: 'done', text: 'Charged and packed.' });
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'finishes an approved call whose worker died while running it, with the same idempotency key',
    async () => {
      const db = join(dir, 'approved.db');
      const log = join(dir, 'approved.jsonl');
      const store = sqliteStore(db);
      const runs = session({ store, agent: shopAgent('order', log) });
      const run = (await runs.start('Ship', { runId: 'run-approved' })) as Extract<
        SessionRun,
        { status: 'suspended' }
      >;
      const token = run.pending[0].token!;

      const base = { db, log, plan: 'order', runId: run.runId };
      const killed = await worker(
        { ...base, op: 'approve', token, leaseMs: 300 },
        { FINO_TEST_KILL_IN: 'ship' },
      ).done;
      expect(killed).toEqual({ killed: 'SIGKILL' });
      await expect(runs.approve(token)).rejects.toMatchObject({ code: 'ALREADY_DECIDED' });

      await leaseExpired(store, run.runId);
      expect(await runs.continue(run.runId)).toMatchObject({
        status: 'done',
        text: 'Charged and shipped.',
      });
      const executions = readLog(log);
      expect(executions.map((e) => [e.tool, e.key])).toEqual([
        ['charge', 'run-approved:charge_1'],
        ['ship', 'run-approved:ship_1'],
        ['ship', 'run-approved:ship_1'],
      ]);
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'lets exactly one of two processes racing to approve the same call win; the tool runs once',
    async () => {
      const db = join(dir, 'race.db');
      const log = join(dir, 'race.jsonl');
      const store = sqliteStore(db);
      const runs = session({ store, agent: shopAgent('order', log) });
      const run = (await runs.start('Ship')) as Extract<SessionRun, { status: 'suspended' }>;
      const barrier = join(dir, 'race.go');
      const command = {
        op: 'approve',
        db,
        log,
        plan: 'order',
        token: run.pending[0].token,
        barrier,
      };
      const racers = [worker(command), worker(command)];
      await Promise.all(racers.map((r) => r.ready));
      writeFileSync(barrier, 'go');
      const answers = await Promise.all(racers.map((r) => r.done));

      const won = answers.filter((a) => a.ok);
      const lost = answers.filter((a) => !a.ok);
      expect(won).toEqual([{ ok: true, result: { runId: run.runId, status: 'done' } }]);
      expect(lost).toEqual([
        { ok: false, code: 'ALREADY_DECIDED', message: expect.stringContaining('already decided') },
      ]);
      expect(readLog(log).filter((e) => e.tool === 'ship')).toHaveLength(1);
      expect((await runs.get(run.runId))!.audit).toHaveLength(1);
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});
