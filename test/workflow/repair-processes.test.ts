/**
 * Cancellation reaching children and fork, across real processes on SQLite and
 * PostgreSQL: a parent cancelled while its children wait in another worker process
 * (the `cancel` child unwinds there through its finally step at once, the `abandon` one
 * waits on, the parent ends after the `wait` one); a process SIGKILLed inside a fork's
 * transaction leaves no trace, and the fork made again happens once, completely.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type WorkflowStore, worker } from '../../src/workflow/index.ts';
import { nodeChild } from '../helpers/child-process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { eachWorkflowStore } from '../helpers/workflow-store.ts';
import { readLog } from './crash-scenario.ts';
import {
  chore,
  household,
  LEDGER_STEPS,
  ledger,
  sideEffects,
} from './fixtures/repair-workflows.ts';

const PROCESS = join(import.meta.dirname, 'fixtures', 'repair-process.ts');
const dir = tempDir('workflow-repair-processes');
/** Child processes start slowly on a loaded machine: generous, never a race against the clock. */
const TIMEOUT = 180_000;

/** Where the processes find the store: the SQLite file or the PostgreSQL URL and schema. */
function placeOf(store: WorkflowStore): { db: string; schema?: string } {
  const place = (store as WorkflowStore & { place?: { db: string; schema?: string } }).place;
  if (!place) throw new Error('the store was not opened by eachWorkflowStore');
  return place;
}

/** Polls until `check` holds, failing after a minute with `what`. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 60_000; !(await check()); await sleep(50)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
  }
}

describe.each(eachWorkflowStore('repair-processes'))('across processes (%s)', (engine, open) => {
  it(
    'a parent cancelled while its children wait in another worker process',
    async ({ skip }) => {
      const store = (await open()) ?? skip();
      const log = join(dir, `cancel-${engine}.jsonl`);
      sideEffects.log = log;
      const status = async (runId: string) => (await store.get(runId))?.status;
      const parents = worker({ store, workflows: [household] }); // this process: the parent only
      await household.start(undefined, { store, runId: 'h' });
      await parents.drain();
      const children = nodeChild(PROCESS, { op: 'serve', ...placeOf(store), log });
      try {
        await children.ready;
        await until(
          'the three children wait',
          async () => (await store.list()).filter((run) => run.status === 'waiting').length === 4,
        );
        await household.cancel('h', { store, by: 'ops' });
        // No worker of the parent has run: its cancellation reached the child at once.
        await until(
          '"dishes" is cancelled',
          async () => (await status('h/dishes')) === 'cancelled',
        );
        await parents.drain();
        expect(await status('h')).toBe('waiting'); // for "garden" (wait)
        await chore.signal({ store, runId: 'h/garden', name: 'go', payload: 'weeded' });
        await until('"garden" is done', async () => (await status('h/garden')) === 'done');
        await parents.drain();
        expect(await status('h')).toBe('cancelled');
        expect(await status('h/laundry')).toBe('waiting'); // abandoned: it runs on
        const cleanups = readLog(log).filter((line) => line.cleanup);
        expect(cleanups.map((line) => line.cleanup)).toEqual(['dishes', 'garden', 'household']);
        expect(cleanups.slice(0, 2).map((line) => line.pid)).toEqual([
          children.process.pid,
          children.process.pid,
        ]);
        expect(await store.audit('h/dishes')).toMatchObject([
          { action: 'cancel', by: 'ops', note: 'its parent run "h" was cancelled' },
        ]);
      } finally {
        children.process.kill('SIGTERM');
        await children.done.catch(() => undefined);
      }
    },
    TIMEOUT,
  );

  it(
    'a process SIGKILLed inside a fork leaves nothing; the fork made again happens once',
    async ({ skip }) => {
      const store = (await open()) ?? skip();
      const log = join(dir, `fork-${engine}.jsonl`);
      sideEffects.log = log;
      await ledger.start(undefined, { store, runId: 'l' });
      await worker({ store, workflows: [ledger] }).drain();
      const fork = {
        op: 'fork',
        ...placeOf(store),
        log,
        source: 'l',
        fromStep: 'entry-40',
        runId: 'l-fix',
      };
      expect(await nodeChild(PROCESS, { ...fork, killInFork: true }).done).toEqual({
        killed: 'SIGKILL',
      });
      expect(await store.get('l-fix')).toBeUndefined();
      expect(await store.history('l-fix')).toEqual([]);
      expect(await store.audit('l')).toEqual([]);
      expect(await nodeChild(PROCESS, fork).done).toEqual({
        runId: 'l-fix',
        created: true,
        status: 'running',
      });
      expect(await nodeChild(PROCESS, fork).done).toMatchObject({ created: false });
      expect(await store.history('l-fix')).toHaveLength(40);
      expect(await store.audit('l')).toHaveLength(1);
      await worker({ store, workflows: [ledger] }).drain();
      const expected = (LEDGER_STEPS * (LEDGER_STEPS - 1)) / 2;
      expect(await ledger.result('l-fix', { store })).toBe(expected);
      const runs = new Map<number, number>();
      for (const line of readLog(log))
        runs.set(line.entry as number, (runs.get(line.entry as number) ?? 0) + 1);
      expect(runs.get(39)).toBe(1); // copied, not run again
      expect(runs.get(40)).toBe(2);
      expect(runs.get(LEDGER_STEPS - 1)).toBe(2);
    },
    TIMEOUT,
  );
});
