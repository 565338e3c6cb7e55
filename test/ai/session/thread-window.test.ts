import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import {
  estimateMessageTokens,
  type ModelMessage,
  scriptedModel,
} from '../../../src/ai/model/index.ts';
import { session } from '../../../src/ai/session/index.ts';
import { SESSION_SCHEMA } from '../../../src/ai/session/store/migrations.ts';
import { sqlStore } from '../../../src/ai/session/store/sql-store.ts';
import { sqliteDriver } from '../../../src/internal/sql/index.ts';
import { countingDriver } from '../../helpers/counting-driver.ts';
import { seededMessage, seedThread } from '../../helpers/long-thread.ts';

/** A memory store whose thread reads are counted, with a seeded thread of `length` messages. */
async function storeWithThread(length: number) {
  const counting = countingDriver(
    sqliteDriver(':memory:', {
      busyTimeoutMs: 0,
      store: 'memoryStore()',
      database: SESSION_SCHEMA.database,
    }),
  );
  const store = sqlStore(counting.driver);
  await store.list(); // migrated
  await seedThread(counting.driver, 'long', length);
  counting.reset();
  return { store, counting };
}

/** The stored tokens of a 20-message seeded thread from position `from` on. */
const tokensFrom = (from: number) =>
  Array.from({ length: 20 - from }, (_, i) =>
    estimateMessageTokens(seededMessage(from + i)),
  ).reduce((a, b) => a + b);

describe('a start on a long thread', () => {
  it('reads only the newest messages that cover the budget: no more rows on 10,000 messages than on 1,000', async () => {
    const read: Record<number, { rows: number; sent: number }> = {};
    for (const length of [1_000, 10_000]) {
      const { store, counting } = await storeWithThread(length);
      const model = scriptedModel(['ok']);
      const runs = session({ store, agent: agent({ model }), threads: { maxTokens: 2_000 } });
      expect((await runs.start('And now?', { threadId: 'long' })).status).toBe('done');
      const sent = model.requests[0].messages;
      // The newest messages, in order, ending with the input; their tokens cover the budget.
      const history = sent.slice(0, -1);
      expect(history).toEqual(
        Array.from({ length: history.length }, (_, i) =>
          seededMessage(length - history.length + i),
        ),
      );
      const tokens = history.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
      expect(tokens).toBeGreaterThanOrEqual(2_000 - estimateMessageTokens(history[0]) * 2);
      expect(history.length).toBeLessThan(100);
      read[length] = { rows: counting.rows('thread_messages'), sent: history.length };
      await store.close();
    }
    // Token counts read backwards in chunks (at most twice what is sent, plus the first
    // chunk), then exactly the messages sent: bounded by the budget, not the thread
    // (the two threads' messages differ only in the digits of their turn numbers).
    for (const { rows, sent } of Object.values(read))
      expect(rows).toBeLessThanOrEqual(3 * sent + 32);
    expect(read[10_000].rows).toBeLessThanOrEqual(read[1_000].rows * 1.1);
  });

  it('reads every message of a thread shorter than the budget, once', async () => {
    const { store, counting } = await storeWithThread(40);
    const model = scriptedModel(['ok']);
    const runs = session({ store, agent: agent({ model }), threads: { maxTokens: 100_000 } });
    await runs.start('And now?', { threadId: 'long' });
    expect(model.requests[0].messages).toHaveLength(41);
    expect(counting.rows('thread_messages')).toBe(40 + 40); // token counts, then the messages
    await store.close();
  });

  it('never starts the window on tool results whose calls it cut off', async () => {
    // Message 9 (a tool result) answers message 8's call: a window starting at 9 starts at 10.
    const { store } = await storeWithThread(20);
    const model = scriptedModel(['ok']);
    const runs = session({ store, agent: agent({ model }), threads: { maxTokens: tokensFrom(9) } });
    await runs.start('And now?', { threadId: 'long' });
    const first = model.requests[0].messages[0];
    expect(first).toEqual(seededMessage(10));
    await store.close();
  });

  it('never starts the window on a model turn: it starts at the next question', async () => {
    // Message 11 is an answer: a window whose budget is covered from 11 starts at 12.
    const { store } = await storeWithThread(20);
    const model = scriptedModel(['ok']);
    const runs = session({
      store,
      agent: agent({ model }),
      threads: { maxTokens: tokensFrom(11) },
    });
    await runs.start('And now?', { threadId: 'long' });
    expect(seededMessage(11).role).toBe('assistant');
    expect(model.requests[0].messages[0]).toEqual(seededMessage(12));
    await store.close();
  });

  it("starts a window whose summary ends on a model turn at that turn's question, losing nothing", async () => {
    // A summary written mid-run stands for the messages before 11 (an answer, its question
    // at 10 summarised): the window goes back to 10 rather than lose 11 or send it first.
    const { store, counting } = await storeWithThread(20);
    await counting.driver.query(
      `UPDATE ${counting.driver.table('threads')} SET summary = ?, summary_through = ? WHERE thread_id = ?`,
      ['SUMMARY OF 0-10', 11, 'long'],
    );
    const model = scriptedModel(['ok']);
    const runs = session({ store, agent: agent({ model }), threads: { maxTokens: 100_000 } });
    await runs.start('And now?', { threadId: 'long' });
    const [request] = model.requests;
    expect(request.system).toContain('SUMMARY OF 0-10');
    expect(request.messages.slice(0, -1)).toEqual(
      Array.from({ length: 10 }, (_, i) => seededMessage(10 + i)),
    );
    await store.close();
  });

  it('goes back no further than the budget for the question of an exchange longer than it', async () => {
    // One question, then 1,000 tool calls and results; a summary up to call 950 (position
    // 1,901). Its question is 1,900 messages back: the start reads about a budget's worth
    // of them, gives up, and starts at the next question (here: none, so only the input).
    const { store, counting } = await storeWithThread(0);
    const loop: ModelMessage[] = [{ role: 'user', content: 'Check every record.' }];
    for (let call = 0; call < 1_000; call++) {
      const id = `call_${call}`;
      loop.push(
        { role: 'assistant', content: [{ type: 'tool_use', id, name: 'lookup', args: { call } }] },
        { role: 'user', content: [{ type: 'tool_result', toolCallId: id, content: `ok ${call}` }] },
      );
    }
    const t = counting.driver.table;
    await counting.driver.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO ${t('threads')} (thread_id, message_count, summary, summary_through, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)`,
        ['loop', loop.length, 'SUMMARY OF CALLS 0-949', 1_901],
      );
      for (const [position, message] of loop.entries()) {
        await tx.query(
          `INSERT INTO ${t('thread_messages')} (thread_id, position, run_id, message, tokens) VALUES (?, ?, 'seed', ?, ?)`,
          ['loop', position, JSON.stringify(message), estimateMessageTokens(message)],
        );
      }
    });
    const budget = loop.slice(1_901).reduce((sum, m) => sum + estimateMessageTokens(m), 0);
    counting.reset();
    const model = scriptedModel(['ok']);
    const runs = session({ store, agent: agent({ model }), threads: { maxTokens: budget } });
    await runs.start('And now?', { threadId: 'loop' });
    const [request] = model.requests;
    expect(request.system).toContain('SUMMARY OF CALLS 0-949');
    expect(request.messages).toEqual([{ role: 'user', content: 'And now?' }]);
    // The window's 100 token counts and messages, and at most a budget's worth (in chunks) back.
    expect(counting.rows('thread_messages')).toBeLessThanOrEqual(2 * 100 + 2 * 100 + 32);
    await store.close();
  });
});
