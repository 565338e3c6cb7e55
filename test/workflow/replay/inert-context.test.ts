/**
 * The parked stand-ins of a replay: an agent the history left in the middle of its run (a
 * worker would resume it: call the model, run its tools) and a tool call left waiting
 * are parked, so replaying such a real history makes no model request and runs no tool.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { exportHistory, replayHistory, worker, workflow } from '../../../src/workflow/index.ts';
import { memoryStorePerTest } from '../../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

/** A workflow whose agent calls a tool that runs until `release` is called. */
function slowAgentFlow() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const ran: string[] = [];
  const slow = tool({
    name: 'slow',
    description: 'Takes its time.',
    parameters: v.object({}),
    execute: async () => {
      ran.push('slow');
      await gate;
      return 'slow done';
    },
  });
  const model = scriptedModel([{ toolCalls: [{ name: 'slow', args: {} }] }, 'All done.']);
  const flow = workflow({
    id: 'slow-agent',
    run: async (ctx) => (await ctx.agent(agent({ model, tools: [slow] }), 'go')).text,
  });
  return { flow, release, ran, model };
}

it('an agent caught in the middle of its run is parked: no model request, no tool run', async () => {
  const store = fresh();
  const live = slowAgentFlow();
  const { runId } = await live.flow.start(undefined, { store });
  const w = worker({ store, workflows: [live.flow], pollMs: 10 });
  await w.start();
  try {
    while (live.ran.length === 0) await sleep(10); // the agent's tool is running
    const history = await exportHistory(runId, { store });
    expect(history.entries).toMatchObject([{ kind: 'agent', state: 'waiting' }]);
    const replayed = slowAgentFlow();
    await expect(replayHistory(replayed.flow, history)).resolves.toMatchObject({
      ended: 'waiting',
    });
    expect(replayed.model.requests).toHaveLength(0);
    expect(replayed.ran).toEqual([]);
    live.release();
    expect(await live.flow.result(runId, { store, timeoutMs: 10_000 })).toBe('All done.');
  } finally {
    live.release();
    await w.stop();
  }
});
