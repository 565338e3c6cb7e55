/**
 * A run of a thread whose worker is SIGKILLed mid-step: the thread stays held by it, no
 * other run of the thread starts, and when another process finishes it its messages are
 * appended exactly once (SQLite, real processes).
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { session, sqliteStore } from '../../../src/ai/session/index.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { worker } from './child.ts';

const dir = tempDir('thread-crash');

describe('a thread across a crash (SQLite)', () => {
  it('keeps the thread held by the killed run, and appends its messages once when another process finishes it', async () => {
    const db = join(dir, 'thread.db');
    const base = { db, log: join(dir, 'thread.jsonl'), plan: 'pack', runId: 'run-crash' };
    const killed = await worker(
      { ...base, op: 'start', leaseMs: 300, threadId: 'customer-9' },
      { FINO_TEST_KILL_IN: 'pack' },
    ).done;
    expect(killed).toEqual({ killed: 'SIGKILL' });

    const store = sqliteStore(db);
    const model = scriptedModel(['Anything else?']);
    const runs = session({ store, agent: agent({ model }) });
    expect(await runs.thread('customer-9')).toMatchObject({ length: 0, activeRunId: 'run-crash' });
    await expect(runs.start('Hello?', { threadId: 'customer-9' })).rejects.toMatchObject({
      code: 'THREAD_BUSY',
    });

    for (;;) {
      const run = await store.get('run-crash');
      if ((run?.leaseExpiresAt ?? 0) < Date.now() - 5) break;
      await sleep(25);
    }
    const finished = await worker({ ...base, op: 'continue' }).done;
    expect(finished).toEqual({ ok: true, result: { runId: 'run-crash', status: 'done' } });

    const final = (await runs.get('run-crash'))!;
    const thread = (await runs.thread('customer-9'))!;
    expect(thread.activeRunId).toBeUndefined();
    expect(thread.messages.map((m) => m.message)).toEqual(final.state!.messages);
    expect(new Set(thread.messages.map((m) => m.runId))).toEqual(new Set(['run-crash']));

    const next = await runs.start('Hello?', { threadId: 'customer-9' });
    expect(next.status).toBe('done');
    expect(model.requests[0].messages.slice(0, -1)).toEqual(final.state!.messages);
    expect((await runs.thread('customer-9'))?.length).toBe(thread.length + 2);
    await store.close();
  }, 240_000);
});
