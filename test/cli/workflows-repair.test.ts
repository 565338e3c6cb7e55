/**
 * `fino workflows retry|fork`: a failed run retried and a run forked from a step, from a
 * terminal, audited with --by and --note; bad requests exit non-zero with the reason.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/command.ts';
import { workflows } from '../../src/cli/commands/workflows.ts';
import { sqliteWorkflowStore, worker, workflow } from '../../src/workflow/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('cli-workflows-repair');

async function cli(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => {
    out += c;
  });
  stderr.on('data', (c) => {
    err += c;
  });
  const io: CommandIo = { stdin: new PassThrough(), stdout, stderr, cwd: dir, env: {} };
  const code = await workflows.run(argv, io);
  return { code, out, err };
}

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
      const retried = await cli([
        'retry',
        'r1',
        '--db',
        db,
        '--by',
        'ana',
        '--note',
        'template back',
      ]);
      expect(retried).toMatchObject({ code: 0, out: 'r1 retried: a worker continues it\n' });
      await w.drain();
      expect(await report.result('r1', { store })).toBe('3 rows');
      const forked = await cli([
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
      expect(JSON.parse(forked.out)).toEqual({ runId: 'r2', created: true, status: 'running' });
      await w.drain();
      expect((await report.get('r2', { store })).forkedFrom).toEqual({
        runId: 'r1',
        fromStep: 'render',
      });
      expect((await report.get('r1', { store })).audit?.map((a) => [a.action, a.by])).toEqual([
        ['retry', 'ana'],
        ['fork', 'ana'],
      ]);
      const again = await cli(['retry', 'r1', '--db', db]);
      expect(again.code).not.toBe(0);
      expect(again.err).toContain('only a run that ended in error can be retried');
      const nowhere = await cli(['fork', 'r1', 'draw', '--db', db]);
      expect(nowhere.code).not.toBe(0);
      expect(nowhere.err).toContain('has no history entry "draw"; it holds "query", "render"');
    } finally {
      await store.close();
    }
  });
});
