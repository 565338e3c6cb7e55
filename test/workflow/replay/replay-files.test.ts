/**
 * `replayHistoryFiles`, the CI step: a folder of exported histories replayed against the
 * current code of their workflows, one report with each file that passed and each that
 * did not (and why); a folder with no history refused, the file size limit hit.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_HISTORY_FILE_BYTES,
  exportHistory,
  replayHistoryFiles,
  worker,
  workflow,
} from '../../../src/workflow/index.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();
const root = tempDir('workflow-replay-files');

/** A workflow `id` whose code has the steps `steps`. */
const steps = (id: string, names: string[]) =>
  workflow({
    id,
    async run(ctx) {
      for (const name of names) await ctx.step(name, () => name);
      return 'ok';
    },
  });

/** A folder holding an exported history of each workflow, as `<id>.json`, plus `extra` files. */
async function folder(name: string, extra: Record<string, string> = {}): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  const store = fresh();
  const recorded = [steps('greet', ['compose']), steps('order', ['charge', 'ship'])];
  for (const flow of recorded) {
    const { runId } = await flow.start(undefined, { store });
    await worker({ store, workflows: [flow] }).drain();
    await writeFile(
      join(dir, `${flow.id}.json`),
      JSON.stringify(await exportHistory(runId, { store })),
    );
  }
  for (const [file, text] of Object.entries(extra)) await writeFile(join(dir, file), text);
  return dir;
}

describe('replayHistoryFiles', () => {
  it('replays every history of a folder and reports each that does not fit the code, and why', async () => {
    const dir = await folder('mixed', {
      'cut.json': '{"format":"fino.workflow.history","ver',
      'README.md': 'not a history',
    });
    const current = [steps('greet', ['compose']), steps('order', ['validate', 'charge', 'ship'])];
    const report = await replayHistoryFiles(dir, current);
    expect(report.passed).toMatchObject([
      { file: 'greet.json', workflowId: 'greet', ended: 'returned' },
    ]);
    expect(report.failed).toEqual([
      { file: 'cut.json', code: 'CORRUPT_RUN', message: expect.stringMatching(/not JSON/) },
      {
        file: 'order.json',
        code: 'NONDETERMINISM',
        message: expect.stringContaining(
          'the code reached step "validate", which the history does not hold, before step "charge", which it does',
        ),
      },
    ]);
  });

  it('reports a history of a workflow it was not given', async () => {
    const report = await replayHistoryFiles(await folder('unknown'), [steps('greet', ['compose'])]);
    expect(report.failed).toEqual([
      {
        file: 'order.json',
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining(
          'a history of workflow "order", which is not among the workflows given ("greet")',
        ),
      },
    ]);
  });

  it(`reads no file larger than maxFileBytes (default ${DEFAULT_MAX_HISTORY_FILE_BYTES} bytes)`, async () => {
    const dir = await folder('large');
    const workflows = [steps('greet', ['compose']), steps('order', ['charge', 'ship'])];
    expect((await replayHistoryFiles(dir, workflows)).passed).toHaveLength(2);
    const report = await replayHistoryFiles(dir, workflows, { maxFileBytes: 100 });
    expect(report.failed).toMatchObject([
      {
        file: 'greet.json',
        code: 'TOO_LARGE',
        message: expect.stringMatching(/more than the limit of 100 \(maxFileBytes\)/),
      },
      { file: 'order.json', code: 'TOO_LARGE' },
    ]);
    await expect(replayHistoryFiles(dir, workflows, { maxFileBytes: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining(
        'maxFileBytes: expected a whole number of bytes ≥ 1, received 0',
      ),
    });
  });

  it('refuses a folder that holds no history, or none at all, so a CI step that replays nothing fails', async () => {
    const empty = join(root, 'empty');
    await mkdir(empty, { recursive: true });
    await writeFile(join(empty, 'notes.txt'), 'no histories here');
    await expect(replayHistoryFiles(empty, [])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('holds no *.json history file'),
    });
    await expect(replayHistoryFiles(join(root, 'missing'), [])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('cannot read the folder'),
    });
  });
});
