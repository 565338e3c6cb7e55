import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { collect } from './helpers.ts';

describe('log events in agent streams', () => {
  it("emits a tool's ctx.log() messages, checked, between its call and its result", async () => {
    const copy = tool({
      name: 'copy',
      parameters: v.object({}),
      execute: async (_args, ctx) => {
        ctx.log('info', 'copying');
        ctx.log('warning', 'disk almost full', { free: 0.05 });
        return 'copied';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'copy', args: {} }] }, 'Done.']);
    const events = await collect(agent({ model, tools: [copy] }).stream('go'));
    expect(events.filter((e) => e.type === 'log')).toEqual([
      {
        type: 'log',
        step: 0,
        toolCallId: 'c1',
        toolName: 'copy',
        entry: { level: 'info', message: 'copying' },
      },
      {
        type: 'log',
        step: 0,
        toolCallId: 'c1',
        toolName: 'copy',
        entry: { level: 'warning', message: 'disk almost full', data: { free: 0.05 } },
      },
    ]);
  });
});
