/**
 * Workflow schedules in the inbox's list: with the "all" and "running" filters, a table
 * of the store's schedules under the runs — timing, next tick or paused, the last run
 * started (linked), counts — escaped; not with the decisions filter.
 */
import { describe, expect, it } from 'vitest';
import { inbox, memoryStore, session } from '../../../../src/ai/session/index.ts';
import {
  memoryWorkflowStore,
  schedules,
  worker,
  workflow,
  workflowRuns,
} from '../../../../src/workflow/index.ts';
import { browserLike } from './fixtures.ts';

describe('inbox: workflow schedules', () => {
  it('lists schedules with their next tick, pause and last run', async () => {
    const store = memoryWorkflowStore();
    const report = workflow({ id: 'report', run: () => 'sent' });
    const all = schedules({ store });
    await all.create({
      id: 'nightly<b>',
      workflow: report,
      cron: '0 3 * * *',
      timezone: 'Europe/Oslo',
    });
    await all.create({
      id: 'hourly',
      workflow: report,
      every: 3_600_000,
      startAt: Date.now() - 60_000,
    });
    await all.pause('nightly<b>');
    await worker({ store, workflows: [report] }).drain();
    const [lastRun] = await report.list({ store });
    const { get } = browserLike(
      inbox({ session: session({ store: memoryStore() }), workflows: workflowRuns(store) }),
      'http://127.0.0.1:9999',
    );

    const page = await (await get('/?status=all')).text();
    expect(page).toContain('<h2>Workflow schedules</h2>');
    expect(page).toContain(
      '<td>nightly&lt;b&gt;</td><td>report</td><td>cron 0 3 * * * (Europe/Oslo)</td><td>paused</td><td>none yet</td><td>0 started, 0 missed</td>',
    );
    expect(page).toMatch(
      new RegExp(
        `<td>hourly</td><td>report</td><td>every 60 min</td><td>\\d{4}-[^<]+</td><td><a href="/workflows/${lastRun!.runId}">[^<]+</a></td><td>1 started, 0 missed</td>`,
      ),
    );
    expect(await (await get('/?status=running')).text()).toContain('Workflow schedules');
    expect(await (await get('/')).text()).not.toContain('Workflow schedules'); // the decisions filter
    await store.close();
  });
});
