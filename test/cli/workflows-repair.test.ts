/**
 * `fino workflows retry|fork`: a failed run retried and a run forked from a step, from a
 * terminal, audited with --by and --note; bad requests exit non-zero with the reason.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteWorkflowStore, worker, workflow } from '../../src/workflow/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { cli } from './io.ts';

const dir = tempDir('cli-workflows-repair');

/** `fino workflows <argv>`, in-process. */
const fino = (argv: string[]) => cli(['workflows', ...argv]);

let broken = true;
const report = workflow({
  id: 'report',
  async run(ctx) {
    const rows = await ctx.step('query', () => 3);
    return ctx.step('render', () => {
      if (broken) throw new Error('template missing');
      return `${rows} rows`;
    });
  },
});

describe('fino workflows retry|fork', () => {
  it('retries a failed run and forks a run from a step, audited', async () => {
    const db = join(dir, 'w.db');
    const store = sqliteWorkflowStore(db);
    const w = worker({ store, workflows: [report] });
    try {
      await report.start(undefined, { store, runId: 'r1' });
      await w.drain();
      broken = false;
      const retried = await fino([
        'retry',
        'r1',
        '--db',
        db,
        '--by',
        'ana',
        '--note',
        'template back',
      ]);
      expect(retried).toMatchObject({ code: 0, stdout: 'r1 retried: a worker continues it\n' });
      await w.drain();
      expect(await report.result('r1', { store })).toBe('3 rows');
      const forked = await fino([
        'fork',
        'r1',
        'render',
        '--as',
        'r2',
        '--db',
        db,
        '--by',
        'ana',
        '--json',
      ]);
      expect(forked.code).toBe(0);
      expect(JSON.parse(forked.stdout)).toEqual({ runId: 'r2', created: true, status: 'running' });
      await w.drain();
      expect((await fino(['show', 'r2', '--db', db])).stdout).toContain(
        '  forked from r1 at "render"\n',
      );
      expect((await report.get('r2', { store })).forkedFrom).toEqual({
        runId: 'r1',
        fromStep: 'render',
      });
      expect((await report.get('r1', { store })).audit?.map((a) => [a.action, a.by])).toEqual([
        ['retry', 'ana'],
        ['fork', 'ana'],
      ]);
      const again = await fino(['retry', 'r1', '--db', db]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain('only a run that ended in error can be retried');
      const nowhere = await fino(['fork', 'r1', 'draw', '--db', db]);
      expect(nowhere.code).not.toBe(0);
      expect(nowhere.stderr).toContain('has no history entry "draw"; it holds "query", "render"');
    } finally {
      await store.close();
    }
  });
});
