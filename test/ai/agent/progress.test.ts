import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { collect } from './helpers.ts';

describe('progress events in agent streams', () => {
  it("emits a tool's ctx.progress() updates between its call and its result", async () => {
    const copy = tool({
      name: 'copy',
      parameters: v.object({}),
      execute: async (_args, ctx) => {
        ctx.progress({ progress: 1, total: 2, message: 'first file' });
        ctx.progress({ progress: 2, total: 2 });
        return 'copied';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'copy', args: {} }] }, 'Done.']);
    const events = await collect(agent({ model, tools: [copy] }).stream('go'));
    const types = events.map((e) => e.type);
    expect(types.slice(types.indexOf('tool-call'), types.indexOf('tool-result') + 1)).toEqual([
      'tool-call',
      'progress',
      'progress',
      'tool-result',
    ]);
    expect(events.filter((e) => e.type === 'progress')).toEqual([
      {
        type: 'progress',
        step: 0,
        toolCallId: 'c1',
        toolName: 'copy',
        progress: { progress: 1, total: 2, message: 'first file' },
      },
      {
        type: 'progress',
        step: 0,
        toolCallId: 'c1',
        toolName: 'copy',
        progress: { progress: 2, total: 2 },
      },
    ]);
  });
});
