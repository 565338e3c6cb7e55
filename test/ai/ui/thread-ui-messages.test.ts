/**
 * threadUIMessages shows a real session thread (memoryStore, scriptedModel, tools) as the
 * messages useChat shows after a reload: one user message per turn, one assistant message
 * per run with a step-start per model turn, texts and reasoning done, tool parts in their
 * final state — the page's own messages pass checkUIMessages and read back to the model
 * as the thread did.
 */
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { memoryStore, session } from '../../../src/ai/session/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { checkUIMessages, threadUIMessages, toModelMessages } from '../../../src/ai/ui/index.ts';
import { v } from '../../../src/validate/index.ts';

const lookup = tool({
  name: 'lookup',
  description: 'Find an order.',
  parameters: v.object({ orderId: v.string() }),
  execute: ({ orderId }: { orderId: string }) => `${orderId}: shipped`,
});
const broken = tool({
  name: 'track',
  description: 'Track a parcel.',
  parameters: v.object({}),
  execute: () => {
    throw new Error('carrier down');
  },
});
const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: v.object({ orderId: v.string() }),
  requiresApproval: true,
  execute: ({ orderId }: { orderId: string }) => `refunded ${orderId}`,
});

describe('threadUIMessages', () => {
  it('shows each run of a thread as one assistant message with its steps and final tool states', async () => {
    const model = scriptedModel([
      {
        reasoning: 'Look the order up.',
        text: 'Checking.',
        toolCalls: [
          { id: 'c1', name: 'lookup', args: { orderId: 'o-1' } },
          { id: 'c2', name: 'track', args: {} },
        ],
      },
      'o-1 has shipped.',
      { toolCalls: [{ id: 'c3', name: 'refund', args: { orderId: 'o-1' } }] },
      'No refund, then.',
    ]);
    const store = memoryStore();
    const runs = session({ store, agent: agent({ model, tools: [lookup, broken, refund] }) });
    const first = await runs.start('Where is o-1?', { threadId: 'chat-1', runId: 'run-1' });
    expect(first.status).toBe('done');
    const second = await runs.start('Refund it', { threadId: 'chat-1', runId: 'run-2' });
    expect(second.status).toBe('suspended');
    await runs.reject({ runId: 'run-2', toolCallId: 'c3' }, 'not eligible', { by: 'ana' });
    const page = (await runs.thread('chat-1'))!;
    const messages = threadUIMessages(page);

    expect(messages).toEqual([
      { id: 'chat-1:0', role: 'user', parts: [{ type: 'text', text: 'Where is o-1?' }] },
      {
        id: 'run-1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'reasoning', text: 'Look the order up.', state: 'done' },
          { type: 'text', text: 'Checking.', state: 'done' },
          {
            type: 'tool-lookup',
            toolCallId: 'c1',
            state: 'output-available',
            input: { orderId: 'o-1' },
            output: 'o-1: shipped',
          },
          {
            type: 'tool-track',
            toolCallId: 'c2',
            state: 'output-error',
            input: {},
            errorText: expect.stringContaining('carrier down'),
          },
          { type: 'step-start' },
          { type: 'text', text: 'o-1 has shipped.', state: 'done' },
        ],
      },
      { id: `chat-1:${4}`, role: 'user', parts: [{ type: 'text', text: 'Refund it' }] },
      {
        id: 'run-2',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          {
            type: 'tool-refund',
            toolCallId: 'c3',
            state: 'output-denied',
            input: { orderId: 'o-1' },
            approval: { id: 'run-2/c3', approved: false, reason: 'not eligible' },
          },
          { type: 'step-start' },
          { type: 'text', text: 'No refund, then.', state: 'done' },
        ],
      },
    ]);
    // What the page holds after the reload is what it may post back, and reads to the
    // model as the thread does (reasoning aside: the thread keeps its provider's fields).
    const posted = checkUIMessages(JSON.parse(JSON.stringify(messages)));
    const stored = page.messages.map((m) => m.message);
    const read = toModelMessages(posted);
    expect(read.map((m) => m.role)).toEqual(stored.map((m) => m.role));
    expect(JSON.stringify(read)).toBe(JSON.stringify(withoutProviderFields(stored)));
    await store.close();
  });

  it('names a user turn of a thread without runs by its position, and a page that starts mid-run', async () => {
    const runs = session({
      store: memoryStore(),
      agent: agent({ model: scriptedModel(['a', 'b']) }),
    });
    await runs.start('one', { threadId: 't', runId: 'r1' });
    await runs.start('two', { threadId: 't', runId: 'r2' });
    const newest = (await runs.thread('t', { limit: 3 }))!;
    expect(threadUIMessages(newest)).toEqual([
      {
        id: 'r1',
        role: 'assistant',
        parts: [{ type: 'step-start' }, { type: 'text', text: 'a', state: 'done' }],
      },
      { id: 't:2', role: 'user', parts: [{ type: 'text', text: 'two' }] },
      {
        id: 'r2',
        role: 'assistant',
        parts: [{ type: 'step-start' }, { type: 'text', text: 'b', state: 'done' }],
      },
    ]);
  });
});

/** The stored messages as plain parts: string content as a text part, reasoning without its provider. */
function withoutProviderFields(messages: Array<{ role: string; content: unknown }>) {
  return messages.map((m) => ({
    role: m.role,
    content: (typeof m.content === 'string'
      ? [{ type: 'text', text: m.content }]
      : (m.content as any[])
    )
      .filter((p) => p.type !== 'text' || p.text !== '')
      .map((p) => (p.type === 'reasoning' ? { type: 'reasoning', text: p.text } : p)),
  }));
}
