/**
 * The agent every session benchmark drives: its model asks for one `refund` call that
 * needs approval, then answers. The model answers from the conversation (no script to
 * run out of, no recorded requests to grow), and every execution of `refund` is counted
 * by its idempotency key, so a run executed twice shows up as a duplicate.
 */
import { agent } from '../../src/ai/agent/index.ts';
import type { GenerateRequest, GenerateResult, Model } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

const model: Model = {
  id: 'bench-refund',
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    if (request.messages.some((m) => m.role === 'assistant')) {
      const text = 'Refunded.';
      const message = { role: 'assistant' as const, content: [{ type: 'text' as const, text }] };
      return { message, text, toolCalls: [], stopReason: 'end', usage };
    }
    const toolCalls = [{ id: 'call_refund', name: 'refund', args: { orderId: 'o-1' } }];
    return {
      message: {
        role: 'assistant',
        content: toolCalls.map((c) => ({ type: 'tool_use' as const, ...c })),
      },
      text: '',
      toolCalls,
      stopReason: 'tool_calls',
      usage,
    };
  },
  stream() {
    throw new Error('bench-refund: stream is not used');
  },
};

/** The agent; `executions` counts each idempotency key `refund` ran with. */
export function refundAgent(executions: Map<string, number>) {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: v.object({ orderId: v.string() }),
    requiresApproval: true,
    execute: ({ orderId }: { orderId: string }, ctx) => {
      const key = ctx.idempotencyKey ?? '';
      executions.set(key, (executions.get(key) ?? 0) + 1);
      return `refunded ${orderId}`;
    },
  });
  return agent({ model, tools: [refund] });
}
