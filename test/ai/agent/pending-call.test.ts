import { describe, expect, it } from 'vitest';
import { argsHash, pendingCall } from '../../../src/ai/agent/index.ts';

describe('pendingCall', () => {
  it('hashes the arguments and copies the tool’s risk and side effects', () => {
    const args = { amount: 40, order: 'A-1' };
    const call = pendingCall(
      { kind: 'approval', toolCallId: 'call_1', toolName: 'refund', args },
      { risk: 'high', sideEffects: false },
    );
    expect(call).toEqual({
      kind: 'approval',
      toolCallId: 'call_1',
      toolName: 'refund',
      args,
      argsHash: argsHash({ order: 'A-1', amount: 40 }),
      risk: 'high',
      sideEffects: false,
    });
  });

  it('keeps a suspension’s reason and payload, and leaves absent fields out of the JSON', () => {
    const suspended = pendingCall({
      kind: 'suspend',
      toolCallId: 'c',
      toolName: 'ask',
      args: undefined,
      reason: 'Which account?',
      payload: { choices: ['a', 'b'] },
    });
    expect(suspended).toEqual({
      kind: 'suspend',
      toolCallId: 'c',
      toolName: 'ask',
      args: undefined,
      argsHash: argsHash(undefined),
      reason: 'Which account?',
      payload: { choices: ['a', 'b'] },
    });
    const bare = pendingCall(
      { kind: 'approval', toolCallId: 'c', toolName: 't', args: {}, reason: undefined },
      { risk: undefined },
    );
    expect(Object.keys(bare).sort()).toEqual([
      'args',
      'argsHash',
      'kind',
      'toolCallId',
      'toolName',
    ]);
  });
});
