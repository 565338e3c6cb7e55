/** Migration 6 on a database of an earlier version: unfinished runs of a thread hold it. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { session, sqliteStore } from '../../../src/ai/session/index.ts';
import { MIGRATIONS, SESSION_SCHEMA } from '../../../src/ai/session/store/migrations.ts';
import { migrate, sqliteDriver } from '../../../src/internal/sql/index.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { stateOf } from './store/store-conformance.ts';

const dir = tempDir('thread-migration');

describe('migration 6', () => {
  it('makes a run left unfinished by version 5 hold its thread; the thread starts empty and fills when it is done', async () => {
    const path = join(dir, 'v5.db');
    const old = sqliteDriver(path, { busyTimeoutMs: 0, store: 'v5', database: 'v5' });
    await migrate(old, { ...SESSION_SCHEMA, migrations: MIGRATIONS.slice(0, 5) });
    const row = `INSERT INTO fino_runs (run_id, thread_id, status, format, input, state, round, lease_owner, lease_expires_at, created_at, updated_at, revision)
      VALUES (?, 'customer-9', ?, 1, '"hi"', ?, 0, ?, ?, 0, 0, ?)`;
    await old.query(row, ['old-done', 'done', JSON.stringify(stateOf('old-done')), null, null, 1]);
    await old.query(row, [
      'old-ready',
      'ready',
      JSON.stringify(stateOf('old-ready')),
      null,
      null,
      2,
    ]);
    await old.close();

    const store = sqliteStore(path);
    const model = scriptedModel(['Done.', 'Welcome back.']);
    const runs = session({ store, agent: agent({ model }) });
    expect(await runs.thread('customer-9')).toMatchObject({ length: 0, activeRunId: 'old-ready' });
    await expect(runs.start('Hello', { threadId: 'customer-9' })).rejects.toMatchObject({
      code: 'THREAD_BUSY',
      runId: 'old-ready',
    });
    expect((await runs.continue('old-ready')).status).toBe('done');
    const thread = (await runs.thread('customer-9'))!;
    expect(thread.activeRunId).toBeUndefined();
    expect(thread.length).toBeGreaterThan(0);
    expect(thread.messages.map((m) => m.runId)).toEqual(thread.messages.map(() => 'old-ready'));
    expect((await runs.start('Hello', { threadId: 'customer-9' })).status).toBe('done');
    await store.close();
  });
});
