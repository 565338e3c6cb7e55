/**
 * `fino workflows`: start a run from a module, signal it, see what it waits on, approve
 * its pending call, cancel — the command over the store a worker drives.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tool } from '../../src/ai/tool/index.ts';
import { workflows } from '../../src/cli/commands/workflows.ts';
import { TERMINAL_CONTROLS } from '../../src/internal/terminal-controls.ts';
import { v } from '../../src/validate/index.ts';
import { sqliteWorkflowStore, worker, workflow, workflowRuns } from '../../src/workflow/index.ts';
import { runCommand } from '../helpers/run-command.ts';
import { openSqlite } from '../helpers/sqlite.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { order } from '../workflow/fixtures/cli-workflows.ts';

const dir = tempDir('cli-workflows');
const MODULE = join(import.meta.dirname, '..', 'workflow', 'fixtures', 'cli-workflows.ts');

const cli = (argv: string[]) => runCommand(workflows, argv, dir);

/** A worker pass over the database, as a worker process would do. */
async function work(db: string) {
  const store = sqliteWorkflowStore(join(dir, db));
  await worker({ store, workflows: [order] }).drain();
  await store.close();
}

describe('fino workflows', () => {
  it('starts, signals, shows what a run waits on, approves its call, and shows it done', async () => {
    const started = await cli([
      'start',
      MODULE,
      'order',
      '--input',
      '{"order":"A1"}',
      '--key',
      'order:A1',
      '--db',
      'w.db',
      '--json',
    ]);
    expect(started.code).toBe(0);
    const { runId, created } = JSON.parse(started.out);
    expect(created).toBe(true);
    const again = await cli([
      'start',
      MODULE,
      'order',
      '--input',
      '{"order":"A1"}',
      '--key',
      'order:A1',
      '--db',
      'w.db',
    ]);
    expect(again.out).toContain(`${runId}  already started (same key)`);

    await work('w.db');
    let shown = await cli(['show', runId, '--db', 'w.db']);
    expect(shown.out).toContain(`${runId}  order  waiting`);
    expect(shown.out).toContain('waits: signal "paid"');

    expect(
      (await cli(['signal', runId, 'paid', '--payload', '{"amount":12}', '--db', 'w.db'])).code,
    ).toBe(0);
    await work('w.db');
    shown = await cli(['show', runId, '--db', 'w.db']);
    expect(shown.out).toContain('pending approval $call:ship  tool=ship  risk=high');
    expect(shown.out).toContain('args={"order":"A1"}');
    expect(shown.out).toContain(`decide: fino workflows approve ${runId} '$call:ship'`);

    const approved = await cli(['approve', runId, '$call:ship', '--by', 'ana', '--db', 'w.db']);
    expect(approved.code).toBe(0);
    const twice = await cli(['approve', runId, '$call:ship', '--db', 'w.db']);
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('was already decided (approve by ana at');
    await work('w.db');
    shown = await cli(['show', runId, '--db', 'w.db', '--json']);
    const run = JSON.parse(shown.out);
    expect(run.status).toBe('done');
    expect(run.output).toEqual({ paid: 12, shipped: 'shipped A1' });
    expect(run.history.map((e: { kind: string }) => e.kind)).toEqual(['signal', 'call']);
    const listed = await cli(['list', '--status', 'done', '--db', 'w.db']);
    expect(listed.out).toContain(`${runId}  order  done`);
  });

  it('cancels a run, and refuses what a finished run cannot take', async () => {
    const { out } = await cli([
      'start',
      MODULE,
      'order',
      '--input',
      '{"order":"B2"}',
      '--db',
      'c.db',
      '--json',
    ]);
    const { runId } = JSON.parse(out);
    const cancelled = await cli(['cancel', runId, '--by', 'ops', '--db', 'c.db']);
    expect(cancelled.out).toContain('cancellation requested');
    await work('c.db');
    const late = await cli(['signal', runId, 'paid', '--db', 'c.db']);
    expect(late.code).toBe(1);
    expect(late.err).toContain(`workflow run "${runId}" is cancelled; it takes no more signals`);
    const unknown = await cli(['start', MODULE, 'nope', '--db', 'c.db']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('exports no workflow "nope"; it exports "order"');
    const missing = await cli(['list', '--db', 'missing.db']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no workflow database at');
  });

  it('refuses a signal name the workflow does not declare, naming those it does (exit 2)', async () => {
    const { out } = await cli([
      'start',
      MODULE,
      'order',
      '--input',
      '{"order":"S1"}',
      '--db',
      's.db',
      '--json',
    ]);
    const { runId } = JSON.parse(out);
    const typo = await cli(['signal', runId, 'payed', '--db', 's.db']);
    expect(typo.code).toBe(2);
    expect(typo.err).toBe(
      'fino: workflow "order" takes no signal "payed"; it takes "paid"\nPass a signal name the run takes.\n',
    );
    const db = openSqlite(join(dir, 's.db'));
    expect(db.prepare('SELECT COUNT(*) AS n FROM fino_workflow_signals').get()).toEqual({ n: 0 });
    db.close();
    expect(
      (await cli(['signal', runId, 'paid', '--payload', '{"amount":1}', '--db', 's.db'])).code,
    ).toBe(0);
  });

  it('prints a decide line that a shell passes on intact, whatever the decision id holds', async () => {
    const pay = tool({
      name: 'pay',
      description: 'Pay an expense.',
      parameters: v.object({}),
      requiresApproval: true,
      execute: () => 'paid',
    });
    // The default id of a call ($call:<tool>), then ids a workflow's author chose.
    const ids = ['$call:pay', `two "words" it's $HOME`, 'esc\x1b[2J tab\t nl\n bidi\u202e end'];
    const odd = workflow({
      id: 'odd',
      input: v.object({}),
      async run(ctx) {
        await ctx.call(pay, {});
        for (const id of ids.slice(1)) await ctx.call(pay, {}, { id });
        return 'done';
      },
    });
    const store = sqliteWorkflowStore(join(dir, 'odd.db'));
    const { runId } = await odd.start({}, { store });
    for (const id of ids) {
      await worker({ store, workflows: [odd] }).drain();
      const shown = await cli(['show', runId, '--db', 'odd.db']);
      const line = /^ {4}decide: (.*)$/m.exec(shown.out)?.[1] ?? '';
      expect(line).not.toMatch(TERMINAL_CONTROLS);
      // The printed command through a real shell, "fino" replaced by a printer of its argv.
      const argv = execFileSync('sh', ['-c', line.replace(/^fino /, "printf '%s\\0' ")])
        .toString('utf8')
        .split('\0')
        .slice(0, -1);
      expect(argv).toEqual(['workflows', 'approve', runId, id]);
      expect((await cli(['approve', ...argv.slice(2), '--db', 'odd.db'])).code).toBe(0);
    }
    await worker({ store, workflows: [odd] }).drain();
    expect((await workflowRuns(store).get(runId)).status).toBe('done');
    await store.close();
  });
});
