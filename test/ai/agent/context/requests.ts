/** The context tests' conversations, and checks on what a model was sent: the shape every provider accepts. */
import { expect } from 'vitest';
import type { ContentPart, GenerateRequest, ModelMessage } from '../../../../src/ai/model/index.ts';

const parts = (m: ModelMessage): ContentPart[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;

/**
 * Every local `tool_use` is answered by a `tool_result` in the very next message, every
 * `tool_result` answers a `tool_use` of the message before it, and the messages start
 * with a user message that is not tool results.
 */
export function expectPaired(request: GenerateRequest): void {
  const { messages } = request;
  const first = messages.find((m) => m.role !== 'system');
  expect(first?.role).toBe('user');
  expect(parts(first!).some((p) => p.type === 'tool_result')).toBe(false);
  messages.forEach((message, i) => {
    const uses = parts(message)
      .filter((p) => p.type === 'tool_use' && p.provider === undefined)
      .map((p) => (p as { id: string }).id);
    const results = parts(message)
      .filter((p) => p.type === 'tool_result' && p.provider === undefined)
      .map((p) => (p as { toolCallId: string }).toolCallId);
    if (uses.length > 0) {
      const next = messages[i + 1];
      const answered = next
        ? parts(next).map((p) => (p as { toolCallId?: string }).toolCallId)
        : [];
      expect(answered, `message ${i}: its tool calls are answered next`).toEqual(
        expect.arrayContaining(uses),
      );
    }
    if (results.length > 0) {
      const previous = messages[i - 1];
      const asked = previous ? parts(previous).map((p) => (p as { id?: string }).id) : [];
      expect(asked, `message ${i}: its results answer the turn before`).toEqual(
        expect.arrayContaining(results),
      );
    }
  });
}

/** `n` user/assistant exchanges of about 100 tokens a message. */
export const exchanges = (n: number): ModelMessage[] =>
  Array.from({ length: n }, (_, i) => [
    { role: 'user' as const, content: `Question ${i}: ${'word '.repeat(80)}` },
    { role: 'assistant' as const, content: `Answer ${i}: ${'word '.repeat(80)}` },
  ]).flat();
