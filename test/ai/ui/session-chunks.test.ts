/**
 * A session run as one UI message from its recorded events: `ai`'s own reader builds
 * from the replay the message the live stream built, a decision's continuation carries
 * on the same message, a failure ends with fino's code, and a takeover that redoes a step
 * does not show its parts twice.
 */
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import {
  memoryStore,
  type RunEvent,
  type SessionRun,
  session,
} from '../../../src/ai/session/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { type SessionUISource, sessionUIChunks } from '../../../src/ai/ui/index.ts';
import { v } from '../../../src/validate/index.ts';

const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: v.object({ orderId: v.string() }),
  requiresApproval: true,
  execute: ({ orderId }: { orderId: string }) => `refunded ${orderId}`,
});

/** The last message `ai`'s reader builds from `chunks`. */
async function readMessage(chunks: AsyncIterable<unknown>): Promise<UIMessage> {
  const stream = ReadableStream.from(chunks as AsyncIterable<UIMessageChunk>);
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last!;
}

const partsOf = (message: UIMessage) =>
  message.parts.map((part) => {
    if (part.type === 'text') return `text:${part.text}`;
    if (part.type.startsWith('tool-')) return `${part.type}:${(part as { state: string }).state}`;
    return part.type;
  });

describe('sessionUIChunks', () => {
  it('replays a run with an approval as the one message a page follows, and a continuation after it', async () => {
    const store = memoryStore();
    const model = scriptedModel([
      {
        text: 'Let me refund it.',
        toolCalls: [{ id: 'c1', name: 'refund', args: { orderId: 'o-17' } }],
      },
      'Refunded o-17.',
    ]);
    const runs = session({ store, agent: agent({ model, tools: [refund] }), events: true });
    const first = await runs.start('Refund o-17', { threadId: 'chat-1' });
    expect(first.status).toBe('suspended');
    const suspended = await readMessage(sessionUIChunks(runs, first.runId, { threadId: 'chat-1' }));
    expect(suspended.id).toBe(first.runId);
    expect(partsOf(suspended)).toEqual([
      'step-start',
      'text:Let me refund it.',
      'tool-refund:approval-requested',
    ]);
    const seen = (await collect(runs.events(first.runId, { follow: false }))).at(-1)!.seq;

    await runs.approve({ runId: first.runId, toolCallId: 'c1' }, { by: 'ana' });
    const whole = await readMessage(sessionUIChunks(runs, first.runId));
    expect(partsOf(whole)).toEqual([
      'step-start',
      'text:Let me refund it.',
      'tool-refund:output-available',
      'step-start',
      'text:Refunded o-17.',
    ]);
    expect(whole.metadata).toMatchObject({ fino: { runId: first.runId, status: 'done' } });

    // The continuation alone: what the approving page receives, on the same message id.
    const continuation = await collect(sessionUIChunks(runs, first.runId, { after: seen }));
    expect(continuation[0]).toMatchObject({ type: 'start', messageId: first.runId });
    expect(continuation.map((chunk) => chunk.type)).not.toContain('tool-approval-request');
    expect(continuation.some((chunk) => chunk.type === 'tool-output-available')).toBe(true);
    await store.close();
  });

  it('refuses an after that is not a seq, naming it', async () => {
    for (const after of [-1, 0.5, Number.NaN, 2 ** 60]) {
      await expect(
        collect(sessionUIChunks(source([], { status: 'done' }), 'run_1', { after })),
      ).rejects.toThrow(/expected "after" to be a seq \(an integer from 0\), received/);
    }
  });

  it('ends a run that failed with fino’s code, and a cancelled one with abort', async () => {
    const failing = source([{ type: 'step-start', step: 0 }], {
      status: 'error',
      error: 'budget spent',
      code: 'BUDGET_EXCEEDED',
    });
    const chunks = await collect(sessionUIChunks(failing, 'run_1'));
    expect(chunks.slice(-4).map((chunk) => chunk.type)).toEqual([
      'data-fino-error',
      'error',
      'finish-step',
      'finish',
    ]);
    expect(chunks).toContainEqual({ type: 'error', errorText: 'BUDGET_EXCEEDED: budget spent' });
    const cancelled = await collect(sessionUIChunks(source([], { status: 'cancelled' }), 'run_1'));
    expect(cancelled.at(-1)).toMatchObject({ type: 'abort' });
  });

  it('drops the parts of a step a dead worker began when its successor redoes the step', async () => {
    const events: RunEvent['event'][] = [
      { type: 'step-start', step: 0 },
      { type: 'text-delta', step: 0, text: 'Half an ans' },
      { type: 'run-resumed', reason: 'takeover' },
      { type: 'step-start', step: 0 },
      { type: 'text-delta', step: 0, text: 'The whole answer.' },
    ];
    const message = await readMessage(
      sessionUIChunks(source(events, { status: 'error', error: 'x' }), 'run_1'),
    );
    const texts = message.parts.filter((part) => part.type === 'text').map((part) => part.text);
    expect(texts).toEqual(['The whole answer.']);
    expect(message.parts.filter((part) => part.type === 'step-start')).toHaveLength(1);
  });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** A source whose run recorded `events` and then stood as `run` says. */
function source(events: RunEvent['event'][], run: Record<string, unknown>): SessionUISource {
  return {
    async *events(runId: string) {
      let seq = 0;
      for (const event of events) yield { runId, seq: ++seq, at: new Date(0).toISOString(), event };
    },
    get: async (runId: string) => ({ runId, ...run }) as unknown as SessionRun,
  } as SessionUISource;
}
