/**
 * Hostile input to threads: thread ids that are empty, huge, full of control characters
 * or not strings; fork positions and page bounds that are not whole numbers in range;
 * forgetting a thread that does not exist; stored message rows that another process
 * corrupted. Each gets a `SessionError` naming what was wrong and what was expected, and
 * nothing is lost: no run is created, no row changes, other threads go on working.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { SessionError, session, sqliteStore } from '../../src/ai/session/index.ts';
import { openSqlite } from '../helpers/sqlite.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('hostile-threads');
let files = 0;

/** A session over a fresh SQLite file, its model, and the file's path. */
function fresh(turns: string[] = ['a1', 'a2', 'a3', 'a4']) {
  const path = join(dir, `t-${files++}.db`);
  const store = sqliteStore(path);
  const model = scriptedModel(turns);
  return { path, store, model, runs: session({ store, agent: agent({ model }) }) };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as SessionError,
  );

const BAD_IDS: Array<[string, unknown, string]> = [
  ['empty', '', 'received string ""'],
  ['huge', 'x'.repeat(1_000_000), 'received a string of 1000000 characters'],
  ['257 characters', 't'.repeat(257), 'received a string of 257 characters'],
  ['NUL', 'a\u0000b', 'received "a\\u0000b" (control characters)'],
  ['an escape sequence', '\u001b[2Jcleared', '(control characters)'],
  ['a C1 control', 'a\u0085b', '(control characters)'],
  ['a number', 42, 'received number 42'],
  ['null', null, 'received null'],
  ['an object', { toString: () => 't' }, 'received object'],
];

describe('thread ids', () => {
  it.each(BAD_IDS)(
    'refuses a thread id that is %s in start, thread, forget and fork, creating nothing',
    async (_, id, received) => {
      const { store, model, runs } = fresh();
      const calls: Array<[string, Promise<unknown>]> = [
        ['start: threadId', runs.start('hi', { threadId: id as string })],
        ['thread: threadId', runs.thread(id as string)],
        ['forget: threadId', runs.forget(id as string)],
        ['fork: threadId', runs.fork(id as string, { at: 0 })],
      ];
      for (const [where, call] of calls) {
        const error = await failure(call);
        expect(error).toBeInstanceOf(SessionError);
        expect(error.code).toBe('INVALID_ARGUMENT');
        expect(error.message).toContain(`${where}: expected a thread id`);
        expect(error.message).toContain(received);
        expect(error.message.length).toBeLessThan(400); // a huge id is described, not echoed
      }
      await runs.start('kept', { threadId: 'good' });
      expect(await failure(runs.fork('good', { threadId: id as string }))).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('fork: options.threadId: expected a thread id'),
      });
      expect(model.requests).toHaveLength(1);
      expect((await runs.list()).map((r) => ('threadId' in r ? r.threadId : r.status))).toEqual([
        'good',
      ]);
      await store.close();
    },
  );

  it('treats __proto__ and constructor as ordinary thread ids', async () => {
    const { store, runs } = fresh();
    await runs.start('one', { threadId: '__proto__' });
    await runs.start('two', { threadId: 'constructor' });
    expect((await runs.thread('__proto__'))?.length).toBe(2);
    expect((await runs.fork('__proto__', { threadId: 'constructor2' })).length).toBe(2);
    expect(({} as Record<string, unknown>).length).toBeUndefined();
    expect(await runs.forget('__proto__')).toEqual({ messages: 2, runs: 1 });
    await store.close();
  });
});

describe('positions and pages', () => {
  it.each([
    [-1, 'received number -1'],
    [1.5, 'received number 1.5'],
    [Number.NaN, 'received number NaN'],
    [Number.POSITIVE_INFINITY, 'received number Infinity'],
    [2 ** 60, `received number ${2 ** 60}`],
    ['2', 'received string "2"'],
  ])('refuses fork at %s', async (at, received) => {
    const { store, runs } = fresh();
    await runs.start('q', { threadId: 't' });
    expect(await failure(runs.fork('t', { at: at as number }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `fork: at: expected an integer from 0 up, ${received}`,
    });
    expect((await runs.list()).length).toBe(1);
    await store.close();
  });

  it('refuses fork past the end, naming the length', async () => {
    const { store, runs } = fresh();
    await runs.start('q', { threadId: 't' });
    expect(await failure(runs.fork('t', { at: 3 }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'fork: at: expected an integer from 0 to 2 (the length of thread "t"), received 3',
    });
    expect(await runs.thread('t2')).toBeUndefined();
    await store.close();
  });

  it.each([
    [{ limit: 0 }, 'thread: limit: expected an integer from 1 to 1000, received number 0'],
    [{ limit: 1001 }, 'thread: limit: expected an integer from 1 to 1000, received number 1001'],
    [{ limit: 'all' }, 'thread: limit: expected an integer from 1 to 1000, received string "all"'],
    [{ before: -5 }, 'thread: before: expected an integer from 0 up, received number -5'],
    [null, 'thread(threadId, options): expected { before?, limit? }, received null'],
  ])('refuses the page %j', async (page, message) => {
    const { store, runs } = fresh();
    expect(await failure(runs.thread('t', page as never))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message,
    });
    await store.close();
  });

  it('answers a page past the end with the newest messages, never more than the limit', async () => {
    const { store, runs } = fresh();
    await runs.start('q', { threadId: 't' });
    const page = await runs.thread('t', { before: 10 ** 12, limit: 1 });
    expect(page?.messages).toHaveLength(1);
    expect(page?.before).toBe(1);
    await store.close();
  });
});

describe('forget', () => {
  it('says NOT_FOUND for a thread that does not exist, and deletes nothing', async () => {
    const { store, runs } = fresh();
    await runs.start('q', { threadId: 'kept' });
    expect(await failure(runs.forget('never-was'))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'no thread with id "never-was"',
    });
    expect((await runs.thread('kept'))?.length).toBe(2);
    await store.close();
  });
});

describe('corrupt stored messages', () => {
  it.each([
    ['not JSON', '{"role":', 'is not valid JSON'],
    ['not a message', '{"role":"tool","content":1}', 'is not a message'],
    ['null', 'null', 'is not a message'],
  ])(
    'reports a row that is %s with its thread and position, and leaves it as it is',
    async (_, bad, what) => {
      const { path, store, model, runs } = fresh(['a1', 'a2', 'a3']);
      await runs.start('q1', { threadId: 't' });
      await runs.start('other', { threadId: 'fine' });
      const db = openSqlite(path);
      db.prepare(
        'UPDATE fino_thread_messages SET message = ? WHERE thread_id = ? AND position = 1',
      ).run(bad, 't');

      const read = await failure(runs.thread('t'));
      expect(read).toMatchObject({ code: 'CORRUPT_THREAD' });
      expect(read.message).toContain(
        `thread "t" cannot be read: the message at position 1 ${what}`,
      );
      expect(read.message).toContain('its row is left untouched');

      // A start that would send it fails before the model is asked; no run is created.
      const requests = model.requests.length;
      expect(await failure(runs.start('q2', { threadId: 't' }))).toMatchObject({
        code: 'CORRUPT_THREAD',
      });
      expect(model.requests.length).toBe(requests);
      expect((await runs.list({ threadId: 't' })).length).toBe(1);
      expect((await runs.thread('fine'))?.length).toBe(2);
      expect(
        (
          db
            .prepare(
              'SELECT message FROM fino_thread_messages WHERE thread_id = ? AND position = 1',
            )
            .get('t') as {
            message: string;
          }
        ).message,
      ).toBe(bad);
      // The thread is not left busy by the failed start, and forgetting it recovers.
      expect((await runs.thread('fine'))?.activeRunId).toBeUndefined();
      expect(await runs.forget('t')).toEqual({ messages: 2, runs: 1 });
      expect((await runs.start('again', { threadId: 't' })).status).toBe('done');
      db.close();
      await store.close();
    },
  );
});

describe('session({ threads })', () => {
  it.each([
    [
      { busy: 'queue' },
      "session: threads.busy: expected 'reject' or 'wait', received string \"queue\"",
    ],
    [{ waitMs: -1 }, 'session: threads.waitMs: expected'],
    [{ waitMs: 2 ** 31 }, 'session: threads.waitMs: expected'],
    [
      { maxTokens: 0 },
      'session: threads.maxTokens: expected a positive integer, received number 0',
    ],
    [
      { maxTokens: 1.5 },
      'session: threads.maxTokens: expected a positive integer, received number 1.5',
    ],
    ['wait', 'session: threads: expected { busy?, waitMs?, maxTokens? }, received string "wait"'],
  ])('refuses threads: %j when the session is created', (threads, message) => {
    const store = sqliteStore(join(dir, `opts-${files++}.db`));
    expect(() => session({ store, threads: threads as never })).toThrow(message);
  });
});
