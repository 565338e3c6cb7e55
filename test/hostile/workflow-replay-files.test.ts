/**
 * A folder of hostile history files given to `replayHistoryFiles`, the CI step: cut
 * short, empty, edited by hand, resealed with a bad entry, bytes that are not UTF-8, a
 * nesting 100 000 deep, and `*.json` names that are no file at all — a folder, a FIFO
 * (which would block a read forever) and a link to /dev/zero (which never ends). Each is
 * one entry of `failed`, naming the file and what was wrong (the entry, where there is
 * one); the good history still passes, nothing is left pending, and the process survives.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  exportHistory,
  type HistoryFilesReport,
  memoryWorkflowStore,
  replayHistoryFiles,
  worker,
  workflow,
} from '../../src/workflow/index.ts';
import { historyDigest } from '../../src/workflow/replay/history-format.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const order = workflow({
  id: 'order',
  async run(ctx) {
    await ctx.step('charge', () => 42);
    return ctx.step('ship', () => 'shipped');
  },
});

const dir = tempDir('hostile-replay-files');
let report: HistoryFilesReport;

beforeAll(async () => {
  const store = memoryWorkflowStore();
  const { runId } = await order.start(undefined, { store });
  await worker({ store, workflows: [order] }).drain();
  const history = await exportHistory(runId, { store });
  await store.close();
  const text = JSON.stringify(history);
  const resealed = structuredClone(history) as unknown as Record<string, any>;
  resealed.entries[1].kind = 'launch';
  resealed.digest = historyDigest(resealed);
  const edited = structuredClone(history) as unknown as Record<string, any>;
  edited.entries[0].value = 41;
  const files: Record<string, string | Buffer> = {
    'good.json': text,
    'cut.json': text.slice(0, text.length / 2),
    'empty.json': '',
    'edited.json': JSON.stringify(edited),
    'resealed.json': JSON.stringify(resealed),
    'not-utf8.json': Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
    'deep.json': `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    'null.json': 'null',
  };
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  await mkdir(join(dir, 'folder.json'));
  await symlink('/dev/zero', join(dir, 'zero.json'));
  const fifo = spawnSync('mkfifo', [join(dir, 'pipe.json')]);
  expect(fifo.status, 'mkfifo').toBe(0);
  report = await replayHistoryFiles(dir, [order]);
}, 30_000);

describe('replayHistoryFiles with hostile files', () => {
  it('passes the good history and reports every other file, once', () => {
    expect(report.passed).toMatchObject([{ file: 'good.json', ended: 'returned' }]);
    expect(report.failed.map((f) => f.file)).toEqual([
      'cut.json',
      'deep.json',
      'edited.json',
      'empty.json',
      'folder.json',
      'not-utf8.json',
      'null.json',
      'pipe.json',
      'resealed.json',
      'zero.json',
    ]);
  });

  it.each([
    ['cut.json', 'CORRUPT_RUN', /not JSON .*cut short/],
    ['empty.json', 'CORRUPT_RUN', /not JSON/],
    ['edited.json', 'CORRUPT_RUN', /digest does not match/],
    ['resealed.json', 'CORRUPT_RUN', /entry 2 .*kind/],
    ['not-utf8.json', 'CORRUPT_RUN', /not JSON/],
    ['deep.json', 'CORRUPT_RUN', /expected an object of format "fino.workflow.history"/],
    ['null.json', 'CORRUPT_RUN', /expected an object of format "fino.workflow.history"/],
    [
      'folder.json',
      'INVALID_ARGUMENT',
      /folder.json is not a regular file .*expected an exported history/,
    ],
    ['pipe.json', 'INVALID_ARGUMENT', /pipe.json is not a regular file/],
    ['zero.json', 'INVALID_ARGUMENT', /zero.json is not a regular file/],
  ])('%s: %s naming what was wrong', (file, code, message) => {
    const failure = report.failed.find((f) => f.file === file);
    expect(failure).toMatchObject({ code, message: expect.stringMatching(message) });
  });
});
