/** pendingToolResponses lists the page's approval responses and the outputs on a message's tool parts. */
import { describe, expect, it } from 'vitest';
import { checkUIMessages, pendingToolResponses } from '../../../src/ai/ui/index.ts';

describe('pendingToolResponses', () => {
  it('lists approval responses and outputs, and nothing for calls still waiting', () => {
    const [message] = checkUIMessages([
      {
        id: 'run-1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'text', text: 'Let me check.' },
          {
            type: 'tool-pay',
            toolCallId: 'c1',
            state: 'approval-responded',
            input: {},
            approval: { id: 'run-1/c1', approved: true },
          },
          {
            type: 'tool-ask',
            toolCallId: 'c2',
            state: 'output-available',
            input: {},
            output: { size: 'M' },
          },
          {
            type: 'dynamic-tool',
            toolName: 'scan',
            toolCallId: 'c3',
            state: 'output-error',
            input: {},
            errorText: 'camera off',
          },
          { type: 'tool-wait', toolCallId: 'c4', state: 'input-available', input: {} },
          {
            type: 'tool-hold',
            toolCallId: 'c5',
            state: 'approval-requested',
            input: {},
            approval: { id: 'run-1/c5' },
          },
        ],
      },
    ]);
    expect(pendingToolResponses(message)).toEqual({
      approvals: [{ approvalId: 'run-1/c1', toolCallId: 'c1', toolName: 'pay', approved: true }],
      outputs: [
        { toolCallId: 'c2', toolName: 'ask', output: { size: 'M' } },
        { toolCallId: 'c3', toolName: 'scan', errorText: 'camera off' },
      ],
    });
  });
});
