import { describe, expect, it } from 'vitest';
import { agent, type RunState } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { echoTool } from './helpers.ts';

const threeCalls = () =>
  scriptedModel([
    {
      toolCalls: [
        { id: 'c1', name: 'echo', args: { text: '1' } },
        { id: 'c2', name: 'echo', args: { text: '2' } },
        { id: 'c3', name: 'echo', args: { text: '3' } },
      ],
    },
    'Done.',
  ]);

/** What a checkpoint says about the open turn: which calls have results. */
const settledIds = (state: RunState) => state.turn?.results.map((r) => r.toolCallId) ?? null;

describe('onCheckpoint', () => {
  it('is awaited after the model turn and after each tool result, with fresh JSON copies', async () => {
    const checkpoints: RunState[] = [];
    const log: string[] = [];
    const echo = echoTool();
    const original = echo.invoke.bind(echo);
    echo.invoke = async (args, ctx) => {
      log.push(`run ${ctx?.toolCallId}`);
      return original(args, ctx);
    };
    const bot = agent({ model: threeCalls(), tools: [echo], toolConcurrency: 1 });
    const result = await bot.generate('go', {
      onCheckpoint: async (state) => {
        await new Promise((resolve) => setImmediate(resolve));
        log.push(`checkpoint ${JSON.stringify(settledIds(state))}`);
        checkpoints.push(state);
      },
    });
    expect(log).toEqual([
      'checkpoint []',
      'run c1',
      'checkpoint ["c1"]',
      'run c2',
      'checkpoint ["c1","c2"]',
      'run c3',
      'checkpoint ["c1","c2","c3"]',
      'checkpoint null',
      'checkpoint null',
    ]);
    // A checkpoint is a copy: later progress does not show up in it.
    expect(checkpoints[0].messages).toHaveLength(2);
    expect(checkpoints.at(-1)).toEqual(result.state);
    expect(checkpoints.at(-1)).not.toBe(result.state);
    for (const state of checkpoints) expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('stops the run with its error, starting no further tool call', async () => {
    const echo = echoTool();
    let count = 0;
    const run = agent({ model: threeCalls(), tools: [echo], toolConcurrency: 1 }).generate('go', {
      onCheckpoint: () => {
        count += 1;
        if (count === 2) throw new Error('store unavailable');
      },
    });
    await expect(run).rejects.toThrow('store unavailable');
    expect(echo.calls.map((c) => c.ctx.toolCallId)).toEqual(['c1']);
  });
});

describe('checkpointCopy', () => {
  it('false passes the live state, serialised by the hook as it is at each checkpoint', async () => {
    const seen: RunState[] = [];
    const saved: string[] = [];
    const result = await agent({
      model: threeCalls(),
      tools: [echoTool()],
      toolConcurrency: 1,
    }).generate('go', {
      checkpointCopy: false,
      onCheckpoint: (state) => {
        seen.push(state);
        saved.push(JSON.stringify(settledIds(state)));
      },
    });
    expect(seen.every((state) => state === seen[0])).toBe(true);
    expect(seen[0]).toBe(result.state);
    expect(saved).toEqual(['[]', '["c1"]', '["c1","c2"]', '["c1","c2","c3"]', 'null', 'null']);
  });

  it('must be a boolean', async () => {
    const run = agent({ model: threeCalls(), tools: [echoTool()] }).generate('go', {
      checkpointCopy: 'no' as unknown as boolean,
    });
    await expect(run).rejects.toThrow(
      'run options.checkpointCopy: expected a boolean, received string',
    );
  });
});

describe('onCheckpoint reasons', () => {
  it('say at which point each checkpoint is taken, in generate, resume and abort', async () => {
    const reasons: string[] = [];
    const onCheckpoint = (_state: RunState, { reason }: { reason: string }) => {
      reasons.push(reason);
    };
    await agent({ model: threeCalls(), tools: [echoTool()], toolConcurrency: 1 }).generate('go', {
      onCheckpoint,
    });
    expect(reasons).toEqual([
      'model-turn',
      'tool-outcome',
      'tool-outcome',
      'tool-outcome',
      'turn-closed',
      'final',
    ]);

    reasons.length = 0;
    const remove = echoTool({ name: 'remove', requiresApproval: true });
    const bot = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'r', name: 'remove', args: { text: 'x' } }] },
        'Removed.',
      ]),
      tools: [remove],
    });
    const suspended = await bot.generate('go', { onCheckpoint });
    expect(reasons).toEqual(['model-turn', 'tool-outcome']);
    reasons.length = 0;
    await bot.resume(suspended.state, { r: { approve: true } }, { onCheckpoint });
    expect(reasons).toEqual(['decisions', 'tool-outcome', 'turn-closed', 'final']);

    reasons.length = 0;
    const controller = new AbortController();
    const stuck = echoTool({ name: 'stuck' });
    stuck.invoke = () => {
      controller.abort(new Error('stop'));
      return new Promise(() => {});
    };
    const aborted = agent({
      model: scriptedModel([{ toolCalls: [{ id: 's', name: 'stuck', args: { text: 'x' } }] }]),
      tools: [stuck],
    }).generate('go', { onCheckpoint, signal: controller.signal });
    await expect(aborted).rejects.toThrow('aborted');
    expect(reasons).toEqual(['model-turn', 'aborted']);
  });
});

describe('resume from a mid-step checkpoint (a crashed worker)', () => {
  it('never re-runs calls with a result, and runs the others with the same idempotency keys', async () => {
    const checkpoints: RunState[] = [];
    const first = echoTool();
    const crashed = agent({ model: threeCalls(), tools: [first], toolConcurrency: 1 }).generate(
      'go',
      {
        runId: 'run-9',
        onCheckpoint: (state) => {
          checkpoints.push(state);
          if (settledIds(state)?.length === 1) throw new Error('worker died');
        },
      },
    );
    await expect(crashed).rejects.toThrow('worker died');
    const saved = JSON.parse(JSON.stringify(checkpoints.at(-1)));
    expect(settledIds(saved)).toEqual(['c1']);

    // Another worker picks the state up; the model continues from its second turn.
    const second = echoTool();
    const model = scriptedModel(['Done.']);
    const result = await agent({ model, tools: [second] }).resume(saved);
    expect(result.status).toBe('done');
    expect(second.calls.map((c) => c.ctx.idempotencyKey)).toEqual(['run-9:c2', 'run-9:c3']);
    expect(result.state.runId).toBe('run-9');
    expect(result.status === 'done' && result.steps[0].toolResults.map((r) => r.content)).toEqual([
      'echo: 1',
      'echo: 2',
      'echo: 3',
    ]);
  });

  it('still asks for approval of calls that had not been reached', async () => {
    const checkpoints: RunState[] = [];
    const remove = echoTool({ name: 'remove', requiresApproval: true });
    const model = scriptedModel([
      { toolCalls: [{ id: 'r', name: 'remove', args: { text: 'x' } }] },
    ]);
    const crashed = agent({ model, tools: [remove] }).generate('go', {
      onCheckpoint: (state) => {
        checkpoints.push(state);
        throw new Error('worker died');
      },
    });
    await expect(crashed).rejects.toThrow('worker died');
    const resumed = await agent({ model: scriptedModel([]), tools: [remove] }).resume(
      checkpoints[0],
    );
    expect(resumed.status === 'suspended' && resumed.pending[0].kind).toBe('approval');
    expect(remove.calls).toHaveLength(0);
  });

  it('runs an approved call that was in flight without asking again', async () => {
    const remove = echoTool({ name: 'remove', requiresApproval: true });
    const model = scriptedModel([
      { toolCalls: [{ id: 'r', name: 'remove', args: { text: 'x' } }] },
      'Removed.',
    ]);
    const bot = agent({ model, tools: [remove] });
    const suspended = await bot.generate('go');
    const checkpoints: RunState[] = [];
    const crashed = bot.resume(
      suspended.state,
      { r: { approve: true } },
      {
        onCheckpoint: (state) => {
          checkpoints.push(state);
          throw new Error('worker died');
        },
      },
    );
    await expect(crashed).rejects.toThrow('worker died');
    expect(remove.calls).toHaveLength(0);
    const result = await bot.resume(JSON.parse(JSON.stringify(checkpoints[0])));
    expect(result.status).toBe('done');
    expect(remove.calls).toHaveLength(1);
  });
});
