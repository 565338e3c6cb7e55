/**
 * `fino workflows history <runId> --json`: the exported history of a real run on SQLite,
 * printed as the document `replayHistory` replays (a signal consumed, a call waiting for
 * its approval); one line per entry without `--json`; an unknown run refused clearly.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { replayHistory, sqliteWorkflowStore, worker } from '../../src/workflow/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { order } from '../workflow/fixtures/cli-workflows.ts';
import { cli } from './io.ts';

const dir = tempDir('cli-workflows-history');

it("prints a run's history as the document replayHistory replays, and one line per entry", async () => {
  const db = join(dir, 'history.db');
  const store = sqliteWorkflowStore(db);
  const { runId } = await order.start({ order: 'A1' }, { store });
  await order.signal({ store, runId, name: 'paid', payload: { amount: 12 } });
  await worker({ store, workflows: [order] }).drain(); // waits for the approval of "ship"
  await store.close();

  const exported = await cli(['workflows', 'history', runId, '--db', db, '--json']);
  expect(exported).toMatchObject({ code: 0, stderr: '' });
  const history = JSON.parse(exported.stdout);
  expect(history).toMatchObject({
    format: 'fino.workflow.history',
    version: 1,
    run: { runId, workflowId: 'order', status: 'waiting', input: { order: 'A1' } },
    entries: [
      { kind: 'signal', state: 'done', value: { amount: 12 } },
      { kind: 'call', id: '$call:ship', state: 'waiting' },
    ],
  });
  await expect(replayHistory(order, exported.stdout)).resolves.toMatchObject({ ended: 'waiting' });

  const lines = await cli(['workflows', 'history', runId, '--db', db]);
  expect(lines.code).toBe(0);
  expect(lines.stdout).toContain(`${runId}  order  waiting  2 entries`);
  expect(lines.stdout).toContain('2 call $call:ship waiting');

  const unknown = await cli(['workflows', 'history', 'wf-none', '--db', db]);
  expect(unknown.code).not.toBe(0);
  expect(unknown.stderr).toContain('no workflow run "wf-none"');
});
