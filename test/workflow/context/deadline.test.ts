/**
 * Deadlines past the last date JavaScript can represent: refused at the call with
 * INVALID_ARGUMENT naming the limit; a stored one (planted behind the store's back) is
 * shown as unreadable on its run, and breaks no list: not the API's, not
 * `fino workflows list`, not the inbox's.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inbox, memoryStore, session } from '../../../src/ai/session/index.ts';
import { MAX_DEADLINE_MS } from '../../../src/workflow/context/deadline.ts';
import {
  sqliteWorkflowStore,
  worker,
  workflow,
  workflowRuns,
} from '../../../src/workflow/index.ts';
import { cli } from '../../cli/io.ts';
import { openSqlite } from '../../helpers/sqlite.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const freshStore = memoryStorePerTest();
const dir = tempDir('workflow-deadline');

/** A workflow whose only wait is the one `wait` makes; the run ends with what it threw. */
const waiting = (id: string, wait: Parameters<typeof workflow>[0]['run']) =>
  workflow({
    id,
    async run(ctx, input) {
      try {
        await wait(ctx, input);
        return 'waited';
      } catch (error) {
        return { code: (error as { code?: string }).code, message: (error as Error).message };
      }
    },
  });

describe('deadlines', () => {
  it.each([
    ['ctx.sleep', waiting('sleep', (ctx) => ctx.sleep('nap', 2 ** 53)), 'ctx.sleep("nap"'],
    [
      'ctx.sleepUntil',
      waiting('until', (ctx) => ctx.sleepUntil('nap', MAX_DEADLINE_MS + 1)),
      'ctx.sleepUntil("nap"',
    ],
    [
      'ctx.waitForSignal',
      waiting('signal', (ctx) => ctx.waitForSignal('go', { timeoutMs: 2 ** 53 })),
      'ctx.waitForSignal("go"',
    ],
  ])(
    '%s refuses a deadline past the representable date, naming the limit',
    async (_, flow, where) => {
      const store = freshStore();
      const { runId } = await flow.start(undefined, { store });
      await worker({ store, workflows: [flow] }).drain();
      const run = await flow.get(runId, { store });
      expect(run.output).toEqual({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining(where),
      });
      expect((run.output as { message: string }).message).toContain(
        `past the latest a durable wait may have (8640000000000000 ms, +275760-09-13T00:00:00.000Z)`,
      );
      expect(await store.history(runId)).toEqual([]);
    },
  );

  it('accepts a deadline of exactly the limit', async () => {
    const store = freshStore();
    const flow = waiting('last', (ctx) => ctx.sleepUntil('nap', MAX_DEADLINE_MS));
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    expect((await flow.get(runId, { store })).waitingOn?.timer).toBe('+275760-09-13T00:00:00.000Z');
  });

  it('shows a planted out-of-range deadline as unreadable, and every list still answers', async () => {
    const file = join(dir, 'planted.db');
    const flow = waiting('nap', (ctx) => ctx.sleep('nap', 60_000));
    const store = sqliteWorkflowStore(file);
    const bad = await flow.start(undefined, { store, runId: 'wf-bad' });
    const good = await flow.start(undefined, { store, runId: 'wf-good' });
    await worker({ store, workflows: [flow] }).drain();
    const db = openSqlite(file);
    db.prepare('UPDATE fino_workflow_runs SET waiting = ?, wake_at = ? WHERE run_id = ?').run(
      JSON.stringify({ timerDueAt: 2 ** 53, signals: [], decisions: [] }),
      2 ** 53,
      bad.runId,
    );
    db.close();

    const runs = await workflowRuns(store).list();
    expect(runs.map((run) => [run.runId, run.corrupt])).toEqual([
      ['wf-bad', `the timer ${2 ** 53} is not a date`],
      ['wf-good', undefined],
    ]);
    const shown = await flow.get(bad.runId, { store });
    expect(shown).toMatchObject({ status: 'waiting', waitingOn: { signals: [] } });
    expect(shown.waitingOn?.timer).toBeUndefined();
    expect((await flow.get(good.runId, { store })).waitingOn?.timer).toMatch(/^\d{4}-/);

    const handle = inbox({
      session: session({ store: memoryStore() }),
      workflows: workflowRuns(store),
    });
    const list = await handle(new Request('http://127.0.0.1:9999/?status=all'));
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('waiting (unreadable)');
    const page = await handle(new Request('http://127.0.0.1:9999/workflows/wf-bad'));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`unreadable: the timer ${2 ** 53} is not a date`);
    await store.close();

    const listed = await cli(['workflows', 'list', '--db', file]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`wf-bad  nap  waiting`);
    expect(listed.stdout).toContain(`  unreadable: the timer ${2 ** 53} is not a date`);
    expect((await cli(['workflows', 'show', 'wf-bad', '--db', file])).code).toBe(0);
  });
});
