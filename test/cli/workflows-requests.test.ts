/**
 * `fino workflows query|update`: a query and an update sent from the command line, on
 * the store alone, answered by a worker that runs the workflow; refusals exit non-zero
 * with the reason.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workflows } from '../../src/cli/commands/workflows.ts';
import { sqliteWorkflowStore, worker, workflow } from '../../src/workflow/index.ts';
import { runCommand } from '../helpers/run-command.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('cli-workflow-requests');

const cli = (argv: string[]) => runCommand(workflows, argv, dir);

const tally = workflow({
  id: 'tally',
  async run(ctx) {
    let total = 0;
    ctx.onQuery('total', () => total);
    ctx.onUpdate(
      'add',
      (n: number) => {
        total += n;
        return total;
      },
      {
        validate: (n) => {
          if (typeof n !== 'number') throw new Error('expected a number');
        },
      },
    );
    await ctx.waitForSignal('close');
    return total;
  },
});

describe('fino workflows query|update', () => {
  it('queries a run, updates it once per update id, and reports refusals', async () => {
    const store = sqliteWorkflowStore(join(dir, 't.db'));
    const w = worker({ store, workflows: [tally], pollMs: 20, handleSignals: false });
    await w.start();
    try {
      const { runId } = await tally.start(undefined, { store });
      const db = ['--db', 't.db'];
      expect(await cli(['query', runId, 'total', ...db])).toMatchObject({ code: 0, out: '0\n' });
      const update = ['update', runId, 'add', '--args', '5', '--update-id', 'a1', ...db];
      expect(await cli(update)).toMatchObject({ code: 0, out: '5\n' });
      expect(await cli(update)).toMatchObject({ code: 0, out: '5\n' });
      const json = await cli(['query', runId, 'total', '--json', ...db]);
      expect(JSON.parse(json.out)).toEqual({ runId, query: 'total', result: 5 });
      const refused = await cli(['update', runId, 'add', '--args', '"x"', ...db]);
      expect(refused.code).not.toBe(0);
      expect(refused.err).toContain('was refused by its validator: expected a number');
      const unknown = await cli(['query', runId, 'nope', ...db]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.err).toContain('the run registers no query "nope"; it registers "total"');
    } finally {
      await w.stop();
      await store.close();
    }
  });
});
