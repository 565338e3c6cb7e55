import { describe, expect, it } from 'vitest';
import { type AgentRunOptions, agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { collect, echoTool } from './helpers.ts';

const model = () =>
  scriptedModel([
    {
      toolCalls: [
        { id: 'c1', name: 'echo', args: { text: 'a' } },
        { id: 'c2', name: 'echo', args: { text: 'b' } },
      ],
    },
    'Done.',
  ]);

/** Hooks that log what they see, in order. */
function recorder() {
  const log: string[] = [];
  const hooks: AgentRunOptions = {
    onStepStart: (e) => {
      log.push(`start ${e.step}`);
    },
    onToolCall: (e) => {
      log.push(`call ${e.call.id}`);
    },
    onToolResult: (e) => {
      log.push(`result ${e.result.toolCallId} ${e.result.content}`);
    },
    onStepFinish: (e) => {
      log.push(`finish ${e.step} ${e.result.text || e.result.toolResults.length}`);
    },
  };
  return { log, hooks };
}

const expected = [
  'start 0',
  'call c1',
  'call c2',
  'result c1 echo: a',
  'result c2 echo: b',
  'finish 0 2',
  'start 1',
  'finish 1 Done.',
];

describe('lifecycle hooks', () => {
  it('are called in order during generate()', async () => {
    const { log, hooks } = recorder();
    await agent({ model: model(), tools: [echoTool()] }).generate('go', hooks);
    expect(log).toEqual(expected);
  });

  it('are called the same way during stream(), alongside the events', async () => {
    const { log, hooks } = recorder();
    const run = agent({ model: model(), tools: [echoTool()] }).stream('go', hooks);
    const events = await collect(run);
    expect(log).toEqual(expected);
    expect(events.at(-1)?.type).toBe('finish');
  });

  it('fail the run when a hook throws', async () => {
    const run = agent({ model: model(), tools: [echoTool()] }).generate('go', {
      onToolCall: () => {
        throw new Error('hook broke');
      },
    });
    await expect(run).rejects.toThrow('hook broke');
  });

  it('fail the run with the hook’s error when a returned promise rejects', async () => {
    const echo = echoTool();
    const run = agent({ model: model(), tools: [echo] }).generate('go', {
      onStepStart: async () => {
        throw new Error('async hook broke');
      },
    });
    await expect(run).rejects.toThrow('async hook broke');
  });

  it('fail the run when the last step’s hook rejects after the run’s work is done', async () => {
    const run = agent({ model: scriptedModel(['Done.']) }).generate('go', {
      onStepFinish: () =>
        new Promise<void>((_, reject) => setImmediate(() => reject(new Error('late')))),
    });
    await expect(run).rejects.toThrow('late');
  });

  it('refuse a misspelt hook or run option, naming the closest one, in every run method', async () => {
    const bot = agent({ model: model(), tools: [echoTool()] });
    const misspelt = { onStepStrat: () => undefined } as unknown as AgentRunOptions;
    const message =
      'run options: unknown option "onStepStrat"; did you mean "onStepStart"? expected one of signal, runId, onCheckpoint, checkpointCopy, onStepStart, onStepFinish, onToolCall, onToolResult, onProgress, onEvent, history, summary, budget, agent';
    await expect(bot.generate('go', misspelt)).rejects.toMatchObject({
      name: 'AgentError',
      code: 'INVALID_ARGUMENT',
      message,
    });
    await expect(collect(bot.stream('go', misspelt))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message,
    });
    await expect(bot.step('go', misspelt)).rejects.toThrow(message);
    await expect(bot.generate('go', { checkpointcopy: false } as never)).rejects.toThrow(
      'unknown option "checkpointcopy"; did you mean "checkpointCopy"?',
    );
  });

  it('refuse a hook that is not a function', async () => {
    const run = agent({ model: model() }).generate('go', {
      onStepFinish: 'log' as unknown as AgentRunOptions['onStepFinish'],
    });
    await expect(run).rejects.toThrow(
      'run options.onStepFinish: expected a function, received string "log"',
    );
  });
});

describe('onProgress', () => {
  it("receives each checked ctx.progress() update of a running tool, with the call's identity", async () => {
    const seen: unknown[] = [];
    const copy = tool({
      name: 'copy',
      description: 'Copies.',
      parameters: v.object({}),
      execute: async (_args: Record<string, never>, ctx) => {
        ctx.progress({ progress: 1, total: 2, message: 'half' });
        return 'copied';
      },
    });
    const bot = agent({
      model: scriptedModel([{ toolCalls: [{ id: 'cp', name: 'copy', args: {} }] }, 'Done.']),
      tools: [copy],
    });
    await bot.generate('go', { onProgress: (event) => void seen.push(event) });
    expect(seen).toEqual([
      {
        type: 'progress',
        step: 0,
        toolCallId: 'cp',
        toolName: 'copy',
        progress: { progress: 1, total: 2, message: 'half' },
      },
    ]);
  });
});
