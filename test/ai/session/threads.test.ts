import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { type ModelMessage, scriptedModel } from '../../../src/ai/model/index.ts';
import {
  postgresStore,
  SessionError,
  type Store,
  session,
  sqliteStore,
} from '../../../src/ai/session/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { nodeChild } from '../../helpers/child-process.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('threads');
const postgres = postgresForTests();

/** A fresh database of one engine: a store factory, and where a child process finds it. */
interface Database {
  make(): Store;
  db: string;
  schema?: string;
}
type Engine = { name: string; open(): Promise<Database | undefined> };
let files = 0;
const engines: Engine[] = [
  {
    name: 'sqlite',
    async open() {
      const path = join(dir, `threads-${files++}.db`);
      return { make: () => sqliteStore(path), db: path };
    },
  },
  {
    name: 'postgres',
    async open() {
      const server = await postgres();
      if (!server) return undefined;
      const url = server.url;
      const schema = await freshSchema(url);
      return { make: () => postgresStore(url, { schema }), db: url, schema };
    },
  },
];

/** Starts `count` processes that each start a run on `threadId` at the same moment; their answers. */
async function race(database: Database, threadId: string, count: number, busy: 'wait' | 'reject') {
  const gate = join(dir, `gate-${files++}`);
  const racers = Array.from({ length: count }, (_, index) =>
    spawnRacer({ db: database.db, schema: database.schema, threadId, index, busy, gate }),
  );
  await Promise.all(racers.map((r) => r.ready));
  writeFileSync(gate, 'go');
  return Promise.all(racers.map((r) => r.done));
}

const lookup = tool({
  name: 'lookup',
  description: 'Look an order up.',
  parameters: v.object({ orderId: v.string() }),
  execute: ({ orderId }: { orderId: string }) => `order ${orderId}: shipped ${'.'.repeat(5000)}`,
});
const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: v.object({ orderId: v.string() }),
  requiresApproval: true,
  execute: ({ orderId }: { orderId: string }) => `refunded ${orderId}`,
});

/** A message's text: its string content, or its text parts joined (other parts as JSON). */
const text = (message: ModelMessage | undefined) =>
  typeof message?.content === 'string'
    ? message.content
    : (message?.content ?? [])
        .map((p) => (p.type === 'text' ? p.text : JSON.stringify(p)))
        .join('');

const RACER = join(import.meta.dirname, 'fixtures', 'thread-racer.ts');
/** Spawns fixtures/thread-racer.ts: resolves `ready` once it is waiting at the gate, `done` with its answer. */
const spawnRacer = (command: Record<string, unknown>) => nodeChild(RACER, command);

for (const engine of engines) {
  describe(`threads (${engine.name})`, () => {
    const opened: Store[] = [];
    afterAll(async () => {
      await Promise.all(opened.map((s) => s.close()));
    });
    /** A store on the engine's fresh database, and a way to open more on the same one. */
    const fresh = async (ctx: { skip(): void }) => {
      const database = await engine.open();
      if (!database) return ctx.skip() as never;
      const open = () => {
        const store = database.make();
        opened.push(store);
        return store;
      };
      return { store: open(), open, database };
    };

    it('continues a thread: earlier runs, tool calls and results (in full) come first; thread() reads it newest last', async (ctx) => {
      const { store } = await fresh(ctx);
      const model = scriptedModel([
        { toolCalls: [{ name: 'lookup', args: { orderId: 'o-17' } }] },
        'o-17 has shipped.',
        'Yes, o-17 is the one that shipped.',
      ]);
      const runs = session({ store, agent: agent({ model, tools: [lookup] }) });
      const first = await runs.start('Where is o-17?', { threadId: 'customer-9' });
      expect(first.status).toBe('done');
      const second = await runs.start('The one you looked up?', { threadId: 'customer-9' });
      expect(second.status).toBe('done');

      const sent = model.requests[2].messages;
      expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      expect(text(sent[0])).toBe('Where is o-17?');
      expect(text(sent[2])).toContain('shipped .....');
      expect(text(sent[4])).toBe('The one you looked up?');

      const thread = await runs.thread('customer-9');
      expect(thread?.length).toBe(6);
      expect(thread?.messages.map((m) => m.position)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(thread?.messages.map((m) => m.runId)).toEqual([
        first.runId,
        first.runId,
        first.runId,
        first.runId,
        second.runId,
        second.runId,
      ]);
      // The tool result is stored in full, with a token estimate that reflects its size.
      const result = thread!.messages[2];
      expect(JSON.stringify(result.message)).toContain('.'.repeat(5000));
      expect(result.tokens).toBeGreaterThan(thread!.messages[0].tokens);
      expect(thread?.activeRunId).toBeUndefined();
      expect(thread?.before).toBeUndefined();
      // Usage: both runs' usage, summed.
      const usageOf = async (runId: string) => (await runs.get(runId))!.state!.usage;
      const [u1, u2] = [await usageOf(first.runId), await usageOf(second.runId)];
      expect(thread?.usage.totalTokens).toBe(u1.totalTokens + u2.totalTokens);
      expect(thread?.usage.inputTokens).toBe(u1.inputTokens + u2.inputTokens);
      // Runs without a thread do not touch threads.
      await runs.start('unrelated');
      expect((await runs.thread('customer-9'))?.length).toBe(6);
      expect(await runs.thread('nobody')).toBeUndefined();
    });

    it('pages a thread with before and limit, newest last', async (ctx) => {
      const { store } = await fresh(ctx);
      const model = scriptedModel(['a1', 'a2', 'a3']);
      const runs = session({ store, agent: agent({ model }) });
      for (const q of ['q1', 'q2', 'q3']) await runs.start(q, { threadId: 't' });
      const newest = await runs.thread('t', { limit: 4 });
      expect(newest?.messages.map((m) => text(m.message))).toEqual(['q2', 'a2', 'q3', 'a3']);
      expect(newest?.before).toBe(2);
      const older = await runs.thread('t', { before: newest!.before, limit: 4 });
      expect(older?.messages.map((m) => text(m.message))).toEqual(['q1', 'a1']);
      expect(older?.before).toBeUndefined();
    });

    it('keeps a suspended run out of the thread until it is done, then appends its messages once; a second start meanwhile is THREAD_BUSY', async (ctx) => {
      const { store } = await fresh(ctx);
      const model = scriptedModel([
        { toolCalls: [{ name: 'refund', args: { orderId: 'o-1' } }] },
        'Refunded.',
        'You are welcome.',
      ]);
      const runs = session({ store, agent: agent({ model, tools: [refund] }) });
      const first = await runs.start('Refund o-1', { threadId: 't' });
      expect(first.status).toBe('suspended');
      expect((await runs.thread('t'))?.length).toBe(0);
      expect((await runs.thread('t'))?.activeRunId).toBe(first.runId);

      const busy = await runs.start('Thanks', { threadId: 't' }).catch((e: unknown) => e);
      expect(busy).toBeInstanceOf(SessionError);
      expect((busy as SessionError).code).toBe('THREAD_BUSY');
      expect((busy as SessionError).message).toContain(`its run "${first.runId}" is suspended`);
      expect(model.requests).toHaveLength(1); // the refused start asked nothing

      if (first.status !== 'suspended') throw new Error('expected suspended');
      const done = await runs.approve(first.pending[0].token!, { by: 'ana' });
      expect(done.status).toBe('done');
      const thread = await runs.thread('t');
      expect(thread?.length).toBe(4);
      expect(thread?.activeRunId).toBeUndefined();
      const after = await runs.start('Thanks', { threadId: 't' });
      expect(after.status).toBe('done');
      expect(model.requests[2].messages).toHaveLength(5);
      expect((await runs.thread('t'))?.length).toBe(6);
    });

    it('frees the thread when its run is cancelled, without appending it; a failed run holds it until cancelled', async (ctx) => {
      const { store } = await fresh(ctx);
      const model = scriptedModel([
        { toolCalls: [{ name: 'refund', args: { orderId: 'o-1' } }] },
        new Error('provider down'),
        'Hello again.',
      ]);
      const runs = session({ store, agent: agent({ model, tools: [refund] }) });
      const first = await runs.start('Refund o-1', { threadId: 't' });
      await runs.cancel(first.runId);
      const failed = await runs.start('Anyone?', { threadId: 't' });
      expect(failed.status).toBe('error');
      await expect(runs.start('Hello?', { threadId: 't' })).rejects.toMatchObject({
        code: 'THREAD_BUSY',
        message: expect.stringContaining(`"${failed.runId}" is error`),
      });
      await runs.cancel(failed.runId);
      const third = await runs.start('Hello?', { threadId: 't' });
      expect(third.status).toBe('done');
      expect(model.requests[2].messages.map(text)).toEqual(['Hello?']);
      expect((await runs.thread('t'))?.messages.map((m) => text(m.message))).toEqual([
        'Hello?',
        'Hello again.',
      ]);
    });

    it("busy: 'wait' waits for the thread's run to finish, then continues after it", async (ctx) => {
      const { store } = await fresh(ctx);
      const model = scriptedModel([
        { toolCalls: [{ name: 'refund', args: { orderId: 'o-1' } }] },
        'Refunded.',
        'Anything else?',
      ]);
      const runs = session({
        store,
        agent: agent({ model, tools: [refund] }),
        threads: { busy: 'wait', waitMs: 20_000 },
      });
      const first = await runs.start('Refund o-1', { threadId: 't' });
      if (first.status !== 'suspended') throw new Error('expected suspended');
      let settled = false;
      const second = runs.start('Thanks', { threadId: 't' }).finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(settled).toBe(false);
      await runs.approve(first.pending[0].token!);
      expect((await second).status).toBe('done');
      expect(model.requests[2].messages.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
      ]);
    });

    it("busy: 'wait' gives up with THREAD_BUSY after waitMs", async (ctx) => {
      const { store } = await fresh(ctx);
      const model = scriptedModel([{ toolCalls: [{ name: 'refund', args: { orderId: 'o' } }] }]);
      const runs = session({
        store,
        agent: agent({ model, tools: [refund] }),
        threads: { busy: 'wait', waitMs: 200 },
      });
      await runs.start('Refund o', { threadId: 't' });
      await expect(runs.start('again', { threadId: 't' })).rejects.toMatchObject({
        code: 'THREAD_BUSY',
      });
    });

    it("busy: 'wait' stops waiting when the start's signal aborts, creating nothing", async (ctx) => {
      const { store } = await fresh(ctx);
      const model = scriptedModel([{ toolCalls: [{ name: 'refund', args: { orderId: 'o' } }] }]);
      const runs = session({
        store,
        agent: agent({ model, tools: [refund] }),
        threads: { busy: 'wait', waitMs: 60_000 },
      });
      await runs.start('Refund o', { threadId: 't' });
      const controller = new AbortController();
      const waiting = runs.start('again', { threadId: 't', signal: controller.signal });
      controller.abort(new Error('user left'));
      await expect(waiting).rejects.toThrow('user left');
      expect(await runs.list({ threadId: 't' })).toHaveLength(1);
      expect(model.requests).toHaveLength(1);
    });

    it('never interleaves runs that separate processes start at once on one thread', async (ctx) => {
      const { store, database } = await fresh(ctx);
      const results = await race(database, 'shared', 4, 'wait');
      expect(results.map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
      const thread = await session({ store }).thread('shared');
      expect(thread?.length).toBe(16);
      const messages = thread!.messages;
      // Each run's four messages are contiguous, and each run was sent every earlier run in full.
      for (let block = 0; block < 4; block++) {
        const ids = messages.slice(block * 4, block * 4 + 4).map((m) => m.runId);
        expect(new Set(ids).size).toBe(1);
        const sent = results.find((r) => r.runId === ids[0])!.sent as ModelMessage[];
        expect(sent.slice(0, -1)).toEqual(messages.slice(0, block * 4).map((m) => m.message));
        expect(sent.at(-1)?.role).toBe('user');
      }
    }, 120_000);

    it('reject mode: of two processes starting at once on one thread, one runs and one gets THREAD_BUSY', async (ctx) => {
      const { database } = await fresh(ctx);
      const results = await race(database, 'race', 2, 'reject');
      expect(results.filter((r) => r.status === 'done')).toHaveLength(1);
      expect(results.filter((r) => r.error === 'THREAD_BUSY')).toHaveLength(1);
    }, 120_000);

    it('forget deletes the messages, the runs and their audit; an unknown thread is NOT_FOUND, a running run THREAD_BUSY', async (ctx) => {
      const { store } = await fresh(ctx);
      const model = scriptedModel([
        'a1',
        { toolCalls: [{ name: 'refund', args: { orderId: 'o' } }] },
        'a3',
        'a4',
      ]);
      const runs = session({ store, agent: agent({ model, tools: [refund] }) });
      const one = await runs.start('q1', { threadId: 'gone' });
      const two = await runs.start('q2', { threadId: 'gone' });
      await runs.start('kept', { threadId: 'other' });
      expect(await runs.forget('gone')).toEqual({ messages: 2, runs: 2 });
      expect(await runs.get(one.runId)).toBeUndefined();
      expect(await runs.get(two.runId)).toBeUndefined();
      expect(await runs.thread('gone')).toBeUndefined();
      expect((await runs.list({ threadId: 'gone' })).length).toBe(0);
      expect((await runs.thread('other'))?.length).toBe(2);
      await expect(runs.forget('gone')).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'no thread with id "gone"',
      });
      // A new conversation may start under the forgotten id.
      expect((await runs.start('again', { threadId: 'gone' })).status).toBe('done');
    });

    it('fork copies a thread up to a position into a new one that continues on its own', async (ctx) => {
      const { store } = await fresh(ctx);
      const model = scriptedModel([
        'a1',
        { toolCalls: [{ name: 'lookup', args: { orderId: 'o' } }] },
        'a2',
        'branch answer',
      ]);
      const runs = session({ store, agent: agent({ model, tools: [lookup] }) });
      await runs.start('q1', { threadId: 'main' });
      await runs.start('q2', { threadId: 'main' });
      expect((await runs.thread('main'))?.length).toBe(6);
      const fork = await runs.fork('main', { at: 2, threadId: 'branch' });
      expect(fork).toEqual({ threadId: 'branch', length: 2 });
      await runs.start('q2 again', { threadId: 'branch' });
      expect(model.requests[3].messages.map(text)).toEqual(['q1', 'a1', 'q2 again']);
      expect((await runs.thread('main'))?.length).toBe(6);
      expect((await runs.thread('branch'))?.length).toBe(4);
      // A whole copy, under a generated id.
      const copy = await runs.fork('main');
      expect(copy.threadId).toMatch(/^thread_/);
      expect(copy.length).toBe(6);
      // Between a tool call and its result: refused, naming both sides.
      await expect(runs.fork('main', { at: 4 })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message:
          'fork: at: 4 would separate the tool calls of message 3 from their results in message 4; fork at 3 or 5',
      });
      await expect(runs.fork('main', { at: 7 })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message:
          'fork: at: expected an integer from 0 to 6 (the length of thread "main"), received 7',
      });
      await expect(runs.fork('main', { at: 1, threadId: 'branch' })).rejects.toMatchObject({
        code: 'THREAD_EXISTS',
      });
      await expect(runs.fork('nowhere', { at: 0 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });
}
