/**
 * `mcpTaskStore()`: MCP task records next to their runs, on SQLite (memory and file)
 * and PostgreSQL — the same contract on each, so several servers can share the tasks.
 */
import { describe, expect, it } from 'vitest';
import { type McpTaskStore, mcpTaskStore } from '../../../../../src/ai/mcp/index.ts';
import { type Store, session } from '../../../../../src/ai/session/index.ts';
import { type OpenStore, sessionStores, withStore } from '../../../../helpers/session-stores.ts';

const engines = sessionStores('mcp-task-store');

const STORES: [string, OpenStore][] = [
  ['memory', engines.memory],
  ['sqlite file', engines.sqlite],
  ['postgres', engines.postgres],
];

const task = (taskId: string, ownerKey = 'anonymous', extra: object = {}) => ({
  taskId,
  ownerKey,
  toolName: 'report',
  arguments: { year: 2026 },
  ttlMs: 60_000,
  worker: 'w1',
  leaseMs: 60_000,
  ...extra,
});

describe.each(STORES)('mcpTaskStore on %s', (_name, open) => {
  /** A test on the task records of a new store (closed after it); skipped without a server. */
  const withTasks = (test: (tasks: McpTaskStore, store: Store) => Promise<void>) =>
    withStore(open, (store) => test(mcpTaskStore(store), store));

  it(
    'records a task with its run, readable by its owner only',
    withTasks(async (tasks) => {
      await tasks.create(task('t1', 'client:alice', { sessionId: 's1' }));
      const record = await tasks.get('t1', 'client:alice');
      expect(record).toMatchObject({
        taskId: 't1',
        ownerKey: 'client:alice',
        sessionId: 's1',
        toolName: 'report',
        arguments: { year: 2026 },
        ttlMs: 60_000,
        run: { runId: 't1', status: 'running', leaseOwner: 'w1' },
      });
      expect(await tasks.get('t1', 'client:mallory')).toBeUndefined();
      expect(await tasks.get('t1')).toBeDefined(); // the server itself reads any
      expect(await tasks.get('nope')).toBeUndefined();
    }),
  );

  it(
    'counts an owner’s stored tasks that have not expired, finished ones included',
    withTasks(async (tasks) => {
      await tasks.create(task('a1', 'auth:["app","sub","ana"]'));
      await tasks.create(task('a2', 'auth:["app","sub","ana"]'));
      await tasks.create(task('a3', 'auth:["app","sub","ana"]', { ttlMs: 1 }));
      await tasks.create(task('b1', 'auth:["app","sub","bob"]'));
      await tasks.finish('a1', 'w1', { status: 'completed', result: 'ok' });
      await new Promise((resolve) => setTimeout(resolve, 20)); // a3 expires
      expect(await tasks.count('auth:["app","sub","ana"]')).toBe(2);
      expect(await tasks.count('auth:["app","sub","bob"]')).toBe(1);
      expect(await tasks.count('anonymous')).toBe(0);
    }),
  );

  it(
    'finishes a task completed, waiting on a pending call a session can decide, or failed',
    withTasks(async (tasks, store) => {
      for (const id of ['done', 'asks', 'broke']) await tasks.create(task(id));
      expect(await tasks.finish('done', 'w1', { status: 'completed', result: { ok: 1 } })).toBe(
        true,
      );
      expect(await tasks.finish('done', 'w1', { status: 'completed', result: 2 })).toBe(false);
      const done = await tasks.get('done');
      expect(done?.run.status).toBe('done');
      expect(tasks.resultOf(done!)).toEqual({ ok: 1 });

      const call = {
        kind: 'approval' as const,
        toolCallId: 'call',
        toolName: 'report',
        args: { year: 2026 },
        argsHash: 'h',
      };
      expect(await tasks.finish('asks', 'w1', { status: 'input_required', call })).toBe(true);
      const decided = await session({ store }).approve({ runId: 'asks', toolCallId: 'call' });
      expect(decided.status).toBe('ready');
      expect(await tasks.orphans()).toEqual([{ taskId: 'asks', interrupted: false }]);

      await tasks.finish('broke', 'w1', { status: 'failed', error: 'disk full' });
      expect((await tasks.get('broke'))?.run).toMatchObject({
        status: 'error',
        error: 'disk full',
      });
    }),
  );

  it(
    'reports tasks whose worker died as interrupted orphans',
    withTasks(async (tasks) => {
      await tasks.create(task('short', 'anonymous', { leaseMs: 1 }));
      await tasks.create(task('held'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await tasks.orphans()).toEqual([{ taskId: 'short', interrupted: true }]);
    }),
  );

  it(
    'lists an owner’s tasks oldest first, by session when asked, a page at a time',
    withTasks(async (tasks) => {
      for (let i = 0; i < 5; i++) {
        await tasks.create(task(`a${i}`, 'client:alice', { sessionId: i < 3 ? 's1' : 's2' }));
      }
      await tasks.create(task('b0', 'client:bob'));
      const first = await tasks.list('client:alice', { limit: 2 });
      expect(first.map((t) => t.taskId)).toEqual(['a0', 'a1']);
      const last = first[first.length - 1];
      const rest = await tasks.list('client:alice', {
        limit: 10,
        after: { createdAt: last.createdAt, taskId: last.taskId },
      });
      expect(rest.map((t) => t.taskId)).toEqual(['a2', 'a3', 'a4']);
      const s2 = await tasks.list('client:alice', { sessionId: 's2', limit: 10 });
      expect(s2.map((t) => t.taskId)).toEqual(['a3', 'a4']);
      expect((await tasks.list('client:bob', { limit: 10 })).map((t) => t.taskId)).toEqual(['b0']);
    }),
  );

  it(
    'keeps the latest status message, cut to 500 characters',
    withTasks(async (tasks) => {
      await tasks.create(task('m'));
      await tasks.setStatusMessage('m', 'x'.repeat(2000));
      expect((await tasks.get('m'))?.statusMessage).toHaveLength(500);
      await tasks.setStatusMessage('m', undefined);
      expect((await tasks.get('m'))?.statusMessage).toBeUndefined();
    }),
  );

  it(
    'sweeps tasks kept past their ttl, with their runs and audit, but never a running one',
    withTasks(async (tasks, store) => {
      await tasks.create(task('old', 'anonymous', { ttlMs: 1 }));
      await tasks.create(task('busy', 'anonymous', { ttlMs: 1 }));
      await tasks.create(task('fresh'));
      await tasks.finish('old', 'w1', { status: 'completed', result: 'r' });
      await store.cancel('fresh', { by: 'x' }); // ended, but within its ttl
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await tasks.sweep()).toBe(1);
      expect(await tasks.get('old')).toBeUndefined();
      expect(await store.get('old')).toBeUndefined();
      expect(await store.audit('old')).toEqual([]);
      expect(await tasks.get('busy')).toBeDefined();
      expect(await tasks.get('fresh')).toBeDefined();
    }),
  );
});

it('refuses a store that is not one of fino’s SQL stores', () => {
  expect(() => mcpTaskStore({} as Store)).toThrow(
    /expected a store made by sqliteStore\(\), memoryStore\(\) or postgresStore\(\)/,
  );
});
