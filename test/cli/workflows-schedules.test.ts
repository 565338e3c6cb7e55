/**
 * `fino workflows schedules`: lists a store's schedules with their next tick, shows one
 * with its audit trail, pauses, resumes and deletes it, and refuses an action without
 * an id as a usage error.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schedules, sqliteWorkflowStore } from '../../src/workflow/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { cli } from './io.ts';

const dir = tempDir('cli-workflow-schedules');

describe('fino workflows schedules', () => {
  it('lists, shows, pauses, resumes and deletes a schedule', async () => {
    const db = join(dir, 'schedules.db');
    const store = sqliteWorkflowStore(db);
    await schedules({ store }).create({
      id: 'nightly',
      workflow: 'report',
      cron: '0 3 * * *',
      timezone: 'Europe/Oslo',
    });
    await store.close();
    const run = (...argv: string[]) => cli(['workflows', 'schedules', ...argv, '--db', db]);

    const listed = await run();
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^nightly {2}report {2}cron "0 3 \* \* \*" Europe\/Oslo {2}next \d{4}-\d\d-\d\dT0[12]:00:00\.000Z\n {2}catch-up once {2}started 0 {2}missed 0\n$/,
    );
    expect((await run('pause', 'nightly', '--by', 'ana', '--note', 'freeze')).stdout).toMatch(
      /^nightly {2}report {2}cron "0 3 \* \* \*" Europe\/Oslo {2}paused\n/,
    );
    expect((await run('resume', 'nightly')).stdout).toMatch(/next \d{4}/);
    const shown = await run('show', 'nightly', '--json');
    expect(
      JSON.parse(shown.stdout).audit.map((a: { action: string; by?: string }) => [a.action, a.by]),
    ).toEqual([
      ['schedule-create', undefined],
      ['schedule-pause', 'ana'],
      ['schedule-resume', undefined],
    ]);
    expect((await run('delete', 'nightly')).stdout).toBe(
      'schedule "nightly" deleted; the runs it started stay\n',
    );
    expect((await run('list')).stdout).toBe('no schedules\n');
    const missing = await run('pause');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/schedules pause needs a schedule id/);
    const unknown = await run('show', 'nope');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/no schedule with id "nope"/);
  });
});
