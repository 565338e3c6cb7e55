/**
 * Attack corpus for the agent loop: hostile values thrown by a tool that rethrows
 * (`throwOnError`) must become an `isError` tool result, never reject the run.
 */
import { describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

const revoked = (() => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
})();

const hostile: Record<string, () => unknown> = {
  'a throwing name getter': () => ({
    get name(): string {
      throw new Error('name');
    },
  }),
  'a throwing message getter': () => ({
    get message(): string {
      throw new Error('message');
    },
  }),
  'a revoked Proxy': () => revoked,
  'a Proxy that throws on every read': () =>
    new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    ),
  'an object whose toString and toJSON throw': () => ({
    toString() {
      throw new Error('toString');
    },
    toJSON() {
      throw new Error('toJSON');
    },
  }),
  'a symbol': () => Symbol('boom'),
  null: () => null,
};

describe('agent: hostile values thrown by a throwOnError tool', () => {
  for (const [label, make] of Object.entries(hostile)) {
    it(`answers ${label} with an isError result and finishes the run`, async () => {
      const thrower = tool({
        name: 'thrower',
        description: 'Throws a hostile value.',
        parameters: v.object({}),
        throwOnError: true,
        execute: () => {
          throw make();
        },
      });
      const model = scriptedModel([
        { toolCalls: [{ id: 'c1', name: 'thrower', args: {} }] },
        'done',
      ]);
      const result = await agent({ model, tools: [thrower] }).generate('go');
      if (result.status !== 'done') throw new Error(`expected done, received ${result.status}`);
      const parts = result.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
      const answer = parts.find((p) => p.type === 'tool_result');
      expect(answer).toMatchObject({ toolCallId: 'c1', isError: true });
      expect(answer?.type === 'tool_result' && answer.content).toMatch(/^Tool "thrower" failed: /);
    });
  }
});
