/**
 * A SIGKILL between a failed attempt and its fallback: a child process runs a session
 * (SQLite file) on gpt-4.1 (fake OpenAI server), whose second request gets a 503; the
 * child is killed as soon as its fallback request reaches Claude (fake Anthropic
 * server). A new process continues the run: the finished first request is never sent
 * again, the tool never runs twice, and the step falls over again and is answered.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../../src/ai/session/index.ts';
import { type Child, nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { type FakeProvider, fakeProvider, type Reply } from '../../helpers/fake-provider.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { functionCall, reply } from '../model/openai/responses-wire.ts';
import { anthropicFixture } from './providers/anthropic.ts';

const WORKER = join(import.meta.dirname, 'fixtures', 'fallback-worker.ts');
const dir = tempDir('fallback-crash');
const servers: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const unavailable: Reply = {
  status: 503,
  json: { error: { message: 'The server is overloaded', type: 'server_error' } },
};

describe('fallback across a crash (SQLite session, real processes)', () => {
  it(
    'never re-bills the finished request nor re-runs the tool after a SIGKILL between the failed attempt and the fallback',
    async () => {
      const db = join(dir, 'fallback.db');
      const log = join(dir, 'refunds.log');
      const runId = 'run-fallback';
      let first: Child | undefined;
      const gpt = await fakeProvider([
        reply([functionCall('call_1', 'refund', { order: '7' })], false),
        unavailable,
        unavailable,
      ]);
      const claude = await fakeProvider([
        // The fallback request of the first process: kill it before any answer.
        () => first!.process.kill('SIGKILL'),
        anthropicFixture.text('Order 7 is refunded.', false),
      ]);
      servers.push(gpt, claude);
      const command = { db, log, runId, openaiUrl: gpt.url, anthropicUrl: claude.url };

      first = nodeChild(WORKER, { ...command, op: 'start' });
      expect(await first.done).toEqual({ killed: 'SIGKILL' });
      expect(gpt.count).toBe(2);
      expect(claude.count).toBe(1);

      const store = sqliteStore(db);
      // Wait for the dead worker's lease to run out.
      while (((await store.get(runId))!.leaseExpiresAt ?? 0) >= Date.now() - 5) await sleep(25);
      const second = await nodeChild(WORKER, { ...command, op: 'continue' }).done;
      expect(second).toEqual({ ok: true, status: 'done' });

      // gpt-4.1: the finished first request once, then the failing step twice (once per process).
      expect(gpt.count).toBe(3);
      const asked = gpt.requests.map((r) => JSON.stringify(r.body).includes('refunded 7'));
      expect(asked).toEqual([false, true, true]);
      expect(claude.count).toBe(2);
      expect(readFileSync(log, 'utf8')).toBe('7\n');
      const state = (await store.get(runId))!.state!;
      expect(state.steps.map((s) => s.model)).toEqual([
        'openai:gpt-4.1',
        'anthropic:claude-sonnet-4-5',
      ]);
      // Step 0 counted once: its usage plus Claude's answer, nothing from the killed attempt.
      expect(state.usage.inputTokens).toBe(state.steps[0].usage.inputTokens + 10);
      await store.close();
    },
    PROCESS_TIMEOUT_MS,
  );
});
