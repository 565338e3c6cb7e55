/**
 * `replayHistoryFiles` (decision 237): the CI step — every exported history in a folder
 * replayed against the current code of its workflow, one report for all of them.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkflowError } from '../errors.ts';
import type { AnyWorkflow } from '../workflow.ts';
import { readHistory } from './read-history.ts';
import { replayRead, type WorkflowReplay } from './replay-history.ts';

/** The default largest history file read: 64 MiB. */
export const DEFAULT_MAX_HISTORY_FILE_BYTES = 64 * 1024 * 1024;

/** What `replayHistoryFiles` found: the histories that replayed, and those that did not. */
export interface HistoryFilesReport {
  passed: Array<WorkflowReplay & { file: string }>;
  /** Each with the code of its `WorkflowError` (`NONDETERMINISM`, `CORRUPT_RUN`, …). */
  failed: Array<{ file: string; code?: string; message: string }>;
}

/**
 * Replays every `*.json` file of `dir` (an exported history each, as `exportHistory`
 * writes it) against the workflow of `workflows` it belongs to, one after another.
 * Rejects with `INVALID_ARGUMENT` when `dir` holds no history file, so a CI step that
 * replays nothing does not pass; each file that does not replay is in `failed`, with why.
 * A file larger than `maxFileBytes` (default 64 MiB) is not read: it fails `TOO_LARGE`;
 * nor is a name that is not a regular file (a pipe, a device): `INVALID_ARGUMENT`.
 *
 * @example
 * ```ts
 * import { mkdtemp, writeFile } from 'node:fs/promises';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { exportHistory, memoryWorkflowStore, replayHistoryFiles, worker, workflow } from 'fino:workflow';
 *
 * const greet = workflow({ id: 'greet', run: (ctx) => ctx.step('compose', () => 'Hello!') });
 * const store = memoryWorkflowStore();
 * const { runId } = await greet.start(undefined, { store });
 * await worker({ store, workflows: [greet] }).drain();
 * const dir = await mkdtemp(join(tmpdir(), 'histories-'));
 * await writeFile(join(dir, 'greet.json'), JSON.stringify(await exportHistory(runId, { store })));
 * const report = await replayHistoryFiles(dir, [greet]);
 * console.log(report.passed.length, report.failed); // 1 []
 * await store.close();
 * ```
 */
export async function replayHistoryFiles(
  dir: string,
  workflows: readonly AnyWorkflow[],
  options?: { maxFileBytes?: number },
): Promise<HistoryFilesReport> {
  const maxBytes = options?.maxFileBytes ?? DEFAULT_MAX_HISTORY_FILE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `replayHistoryFiles: maxFileBytes: expected a whole number of bytes ≥ 1, received ${String(maxBytes)}`,
    );
  }
  const files = await historyFiles(dir);
  const report: HistoryFilesReport = { passed: [], failed: [] };
  for (const file of files) {
    try {
      report.passed.push({ file, ...(await replayFile(join(dir, file), workflows, maxBytes)) });
    } catch (error) {
      const code = error instanceof WorkflowError ? error.code : undefined;
      report.failed.push({
        file,
        ...(code ? { code } : {}),
        message: String((error as Error)?.message ?? error),
      });
    }
  }
  return report;
}

/** The `*.json` files of `dir`, sorted; `INVALID_ARGUMENT` when there are none or no such folder. */
async function historyFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `replayHistoryFiles: cannot read the folder ${JSON.stringify(dir)} (${(error as Error).message})`,
    );
  }
  const files = names.filter((name) => name.endsWith('.json')).sort();
  if (files.length === 0) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `replayHistoryFiles: the folder ${JSON.stringify(dir)} holds no *.json history file; export some with exportHistory or \`fino workflows history <runId> --json\``,
    );
  }
  return files;
}

/** Reads one history file and replays it against its workflow. */
async function replayFile(
  path: string,
  workflows: readonly AnyWorkflow[],
  maxBytes: number,
): Promise<WorkflowReplay> {
  const found = await stat(path);
  if (!found.isFile()) {
    // A FIFO would block the read forever, a device such as /dev/zero never ends.
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `${path} is not a regular file (a folder, a device or a pipe): expected an exported history`,
    );
  }
  const { size } = found;
  if (size > maxBytes) {
    throw new WorkflowError(
      'TOO_LARGE',
      `${path} is ${size} bytes, more than the limit of ${maxBytes} (maxFileBytes)`,
    );
  }
  const read = readHistory(await readFile(path, 'utf8'));
  const workflow = workflows.find((w) => w.id === read.run.workflowId);
  if (!workflow) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `${path} is a history of workflow "${read.run.workflowId}", which is not among the workflows given (${workflows.map((w) => `"${w.id}"`).join(', ') || 'none'})`,
    );
  }
  return replayRead(workflow, read);
}
