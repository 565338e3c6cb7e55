/**
 * A long stored thread, written straight into a session database (as ten thousand
 * earlier runs would have left it): alternating user questions and assistant answers,
 * every fifth answer a tool call with its result, each row with its token estimate.
 *
 * @example
 * ```ts
 * await store.list(); // migrated first
 * await seedThread(driver, 'customer-9', 10_000);
 * ```
 */
import { estimateMessageTokens, type ModelMessage } from '../../src/ai/model/index.ts';
import type { SqlDriver } from '../../src/internal/sql/index.ts';

/** The `index`-th message of a seeded thread. */
export function seededMessage(index: number): ModelMessage {
  const turn = Math.floor(index / 2);
  if (turn % 5 === 4) {
    return index % 2 === 0
      ? {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `call_${turn}`, name: 'lookup', args: { turn } }],
        }
      : {
          role: 'user',
          content: [
            { type: 'tool_result', toolCallId: `call_${turn}`, content: `order ${turn}: shipped` },
          ],
        };
  }
  return index % 2 === 0
    ? { role: 'user', content: `Question ${turn}: where is my order, and when will it arrive?` }
    : { role: 'assistant', content: `Answer ${turn}: it left the warehouse and arrives Friday.` };
}

/** Writes a thread of `count` seeded messages (and its `fino_threads` row) in one transaction. */
export async function seedThread(
  driver: SqlDriver<string>,
  threadId: string,
  count: number,
): Promise<void> {
  const t = (name: string) => driver.table(name);
  await driver.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO ${t('threads')} (thread_id, message_count, created_at, updated_at) VALUES (?, ?, 0, 0)`,
      [threadId, count],
    );
    for (let from = 0; from < count; from += 500) {
      const rows = Array.from({ length: Math.min(500, count - from) }, (_, i) => from + i);
      await tx.query(
        `INSERT INTO ${t('thread_messages')} (thread_id, position, run_id, message, tokens) VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        rows.flatMap((position) => {
          const message = seededMessage(position);
          return [
            threadId,
            position,
            'seed',
            JSON.stringify(message),
            estimateMessageTokens(message),
          ];
        }),
      );
    }
  });
}
