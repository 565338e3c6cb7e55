/**
 * The workflow stores' own rules: the default file, a database from a newer fino, and a
 * corrupt row left untouched.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WORKFLOW_DB,
  sqliteWorkflowStore,
  worker,
  workflow,
} from '../../src/workflow/index.ts';
import { openSqlite } from '../helpers/sqlite.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('workflow-stores');

describe('SQLite workflow store', () => {
  it('defaults to .fino/workflows.db', () => {
    expect(DEFAULT_WORKFLOW_DB).toBe(join('.fino', 'workflows.db'));
  });

  it('refuses a database migrated by a newer fino, naming both versions, and changes nothing', async () => {
    const path = join(dir, 'newer.db');
    const first = sqliteWorkflowStore(path);
    await first.list();
    await first.close();
    const raw = openSqlite(path);
    raw
      .prepare('INSERT INTO fino_workflow_migrations (version, name, applied_at) VALUES (99, ?, 0)')
      .run('future');
    raw.close();
    const store = sqliteWorkflowStore(path);
    await expect(store.list()).rejects.toMatchObject({
      name: 'WorkflowError',
      code: 'SCHEMA_TOO_NEW',
      message: expect.stringMatching(
        /the workflow database is at schema version 99, newer than this fino knows \(\d+\); upgrade fino/,
      ),
    });
    await store.close();
  });

  it('leaves a run it cannot read untouched and reports it as CORRUPT_RUN', async () => {
    const path = join(dir, 'corrupt.db');
    const store = sqliteWorkflowStore(path);
    const flow = workflow({ id: 'flow', run: () => 'ok' });
    const { runId } = await flow.start(undefined, { store });
    const raw = openSqlite(path);
    raw.prepare('UPDATE fino_workflow_runs SET format = 7 WHERE run_id = ?').run(runId);
    raw.close();
    await expect(flow.get(runId, { store })).rejects.toMatchObject({
      code: 'CORRUPT_RUN',
      message: `stored workflow run "${runId}" cannot be read: record format 7 is not one this fino reads (1)`,
    });
    const healthy = await flow.start(undefined, { store });
    const report = await worker({ store, workflows: [flow] }).drain();
    expect(report.corrupt).toEqual([runId]);
    expect(report.runs).toEqual({ [healthy.runId]: 'done' }); // the other runs keep working
    const row = openSqlite(path)
      .prepare('SELECT format, status, lease_owner FROM fino_workflow_runs WHERE run_id = ?')
      .get(runId);
    expect(row).toEqual({ format: 7, status: 'running', lease_owner: null });
    await store.close();
  });
});
