/**
 * An applied update's history row changed behind the store's back (SQLite): `blockedOn`
 * that is not a list of wait ids ends the run as `error` with `CORRUPT_RUN` naming the
 * row, never a crash, and never applies the update as something it was not.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteWorkflowStore, worker, workflow } from '../../src/workflow/index.ts';
import { openSqlite } from '../helpers/sqlite.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('workflow-tampered-update');

const counter = workflow({
  id: 'counter',
  async run(ctx) {
    let count = 0;
    ctx.onUpdate('add', (n: number) => (count += n));
    await ctx.waitForSignal('stop');
    return count;
  },
});

describe('a tampered update entry', () => {
  it('ends the run as error with CORRUPT_RUN naming the entry', async () => {
    const file = join(dir, 'u.db');
    const store = sqliteWorkflowStore(file);
    try {
      const w = worker({ store, workflows: [counter], pollMs: 20, handleSignals: false });
      await w.start();
      const { runId } = await counter.start(undefined, { store });
      expect(await counter.update(runId, 'add', 2, { store, updateId: 'u1' })).toBe(2);
      await w.stop();
      const db = openSqlite(file);
      const row = db
        .prepare('SELECT body FROM fino_workflow_history WHERE run_id = ? AND entry_id = ?')
        .get(runId, '$update:u1') as { body: string };
      const body = { ...JSON.parse(row.body), blockedOn: 'stop' };
      db.prepare('UPDATE fino_workflow_history SET body = ? WHERE run_id = ? AND entry_id = ?').run(
        JSON.stringify(body),
        runId,
        '$update:u1',
      );
      db.close();
      await counter.signal({ store, runId, name: 'stop' });
      const report = await worker({ store, workflows: [counter], onError: () => {} }).drain();
      expect(report.corrupt).toContain(runId);
      const run = await counter.get(runId, { store });
      expect(run.status).toBe('error');
      expect(run.error).toMatchObject({ code: 'CORRUPT_RUN' });
      expect(run.error?.message).toContain('"$update:u1"');
      expect(run.error?.message).toContain('its blockedOn is not an array of strings');
    } finally {
      await store.close();
    }
  });
});
