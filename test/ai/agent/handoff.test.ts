import { describe, expect, it } from 'vitest';
import {
  type Agent,
  AgentError,
  type AgentEvent,
  agent,
  handoff,
  maxSteps,
  type RunState,
} from '../../../src/ai/agent/index.ts';
import { type ModelMessage, scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';

const refundTool = tool({
  name: 'refund',
  parameters: v.object({ order: v.string() }),
  requiresApproval: true,
  execute: ({ order }: { order: string }) => `refunded ${order}`,
});

const toRefunds = (id = 'h1') => ({
  toolCalls: [{ id, name: 'transfer_to_refunds', args: {} }],
});

describe('handoffs', () => {
  it('transfers the run: the target answers with its own instructions, tools and model', async () => {
    const refundsModel = scriptedModel(['Refunds here: done.']);
    const refunds = agent({
      name: 'refunds',
      instructions: 'You handle refunds.',
      description: 'Handles refunds.',
      model: refundsModel,
      tools: [refundTool],
    });
    const triageModel = scriptedModel([toRefunds()]);
    const triage = agent({
      name: 'triage',
      instructions: 'Route the user.',
      model: triageModel,
      handoffs: [refunds],
    });
    const events: AgentEvent[] = [];
    const run = triage.stream('I want a refund');
    for await (const e of run) events.push(e);
    const result = await run.result;
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    expect(result.agent).toBe('refunds');
    expect(result.text).toBe('Refunds here: done.');
    expect(result.state.agent).toBe('refunds');
    const offered = triageModel.requests[0].tools!.map((t) => [t.name, t.description]);
    expect(offered).toEqual([['transfer_to_refunds', 'Handles refunds.']]);
    const asked = refundsModel.requests[0];
    expect(asked.system).toBe('You handle refunds.');
    expect(asked.tools!.map((t) => t.name)).toEqual(['refund']);
    expect(asked.messages).toHaveLength(3); // the user's message, the handoff call, its result
    expect(events.filter((e) => e.type === 'handoff')).toEqual([
      { type: 'handoff', step: 0, from: 'triage', to: 'refunds', toolCallId: 'h1' },
    ]);
  });

  it('an agent without handoffs says it finished the run', async () => {
    const result = await agent({ name: 'solo', model: scriptedModel(['Hi']) }).generate('Hi');
    expect(result.agent).toBe('solo');
  });

  it('checks handoff arguments like tool arguments: a bad call is a result the model repairs', async () => {
    const refunds = agent({ name: 'refunds', model: scriptedModel(['Refund started.']) });
    const triageModel = scriptedModel([
      { toolCalls: [{ id: 'bad', name: 'refund_desk', args: { reason: 7 } }] },
      { toolCalls: [{ id: 'good', name: 'refund_desk', args: { reason: 'broken' } }] },
    ]);
    const triage = agent({
      name: 'triage',
      model: triageModel,
      handoffs: [
        handoff(refunds, {
          toolName: 'refund_desk',
          description: 'Send refund requests here.',
          args: v.object({ reason: v.string() }),
        }),
      ],
    });
    const result = await triage.generate('refund please');
    expect(result.status === 'done' && result.agent).toBe('refunds');
    const repair = result.state.steps[0].toolResults[0];
    expect(repair.isError).toBe(true);
    expect(String(repair.content)).toMatch(/reason/);
    expect(triageModel.requests[0].tools![0]).toMatchObject({
      name: 'refund_desk',
      description: 'Send refund requests here.',
      parameters: { properties: { reason: { type: 'string' } } },
    });
  });

  it('hand-back and cycles are allowed, bounded by the root agent’s stop conditions', async () => {
    const ping = () => ({ toolCalls: [{ name: 'transfer_to_b', args: {} }] });
    const pong = () => ({ toolCalls: [{ name: 'transfer_to_a', args: {} }] });
    const a: Agent = agent({
      name: 'a',
      model: scriptedModel([ping(), ping(), ping()]),
      handoffs: () => [b],
      stopWhen: maxSteps(5),
    });
    const b: Agent = agent({
      name: 'b',
      model: scriptedModel([pong(), pong(), pong()]),
      handoffs: [a],
    });
    const result = await a.generate('go');
    expect(result.status).toBe('done');
    expect(result.state.steps).toHaveLength(5);
    expect(result.agent).toBe('b'); // a, b, a, b, a: the last handoff made b active
    expect(result.state.agent).toBe('b');
  });

  it('the handoff back to the root clears state.agent', async () => {
    const a: Agent = agent({
      name: 'a',
      model: scriptedModel([{ toolCalls: [{ name: 'transfer_to_b', args: {} }] }, 'A again.']),
      handoffs: () => [b],
    });
    const b: Agent = agent({
      name: 'b',
      model: scriptedModel([{ toolCalls: [{ name: 'transfer_to_a', args: {} }] }]),
      handoffs: [a],
    });
    const result = await a.generate('go');
    expect(result.status === 'done' && [result.agent, result.text]).toEqual(['a', 'A again.']);
    expect(result.state.agent).toBeUndefined();
  });

  it('inputFilter shapes what the next agent sees before the handoff; the state keeps all', async () => {
    const refundsModel = scriptedModel([
      { toolCalls: [{ id: 'r1', name: 'lookup', args: {} }] },
      'Found it.',
    ]);
    const lookup = tool({ name: 'lookup', execute: () => 'order 7' });
    const refunds = agent({ name: 'refunds', model: refundsModel, tools: [lookup] });
    const onlyUserText = (messages: ModelMessage[]) =>
      messages.filter((m) => m.role === 'user' && typeof m.content === 'string');
    const triage = agent({
      name: 'triage',
      model: scriptedModel(['Hello!', toRefunds()]),
      handoffs: [handoff(refunds, { inputFilter: onlyUserText })],
    });
    const first = await triage.generate('Hi');
    const result = await triage.generate('refund', {
      history: first.status === 'done' ? first.messages : [],
    });
    expect(result.status).toBe('done');
    expect(refundsModel.requests[0].messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'user', content: 'refund' },
    ]);
    // Its own tool call and result since the handoff are sent whole.
    expect(refundsModel.requests[1].messages).toHaveLength(4);
    expect(result.state.messages).toHaveLength(8);
  });

  it('takes only the first handoff of a turn; a second one is answered with an error', async () => {
    const b = agent({ name: 'b', model: scriptedModel(['B.']) });
    const c = agent({ name: 'c', model: scriptedModel(['C.']) });
    const a = agent({
      name: 'a',
      model: scriptedModel([
        {
          toolCalls: [
            { id: 'x', name: 'transfer_to_c', args: {} },
            { id: 'y', name: 'transfer_to_b', args: {} },
          ],
        },
      ]),
      handoffs: [b, c],
    });
    const result = await a.generate('go');
    expect(result.agent).toBe('c');
    const [taken, ignored] = result.state.steps[0].toolResults;
    expect(taken.isError).toBeUndefined();
    expect(ignored).toMatchObject({ isError: true });
    expect(String(ignored.content)).toMatch(/only one handoff per turn.*"x"/);
  });

  it('survives suspend → JSON → resume on the root: the active agent goes on', async () => {
    // Each "process" builds its agents afresh; the second one's models answer from where the run is.
    const build = (triageTurns: any[], refundsTurns: any[]) => {
      const refunds = agent({
        name: 'refunds',
        model: scriptedModel(refundsTurns),
        tools: [refundTool],
      });
      return agent({ name: 'triage', model: scriptedModel(triageTurns), handoffs: [refunds] });
    };
    const call = { toolCalls: [{ id: 'r1', name: 'refund', args: { order: 'A7' } }] };
    const first = await build([toRefunds()], [call]).generate('refund A7');
    expect(first.status).toBe('suspended');
    expect(first.agent).toBe('refunds');
    const saved = JSON.parse(JSON.stringify(first.state)) as RunState;
    const second = await build([], ['Refunded A7.']).resume(saved, { r1: { approve: true } });
    expect(second.status === 'done' && [second.agent, second.text]).toEqual([
      'refunds',
      'Refunded A7.',
    ]);
  });

  it('a run option starts a new run with another agent of the graph', async () => {
    const refunds = agent({ name: 'refunds', model: scriptedModel(['Refunds again.']) });
    const triage = agent({ name: 'triage', model: scriptedModel([]), handoffs: [refunds] });
    const result = await triage.generate('more', { agent: 'refunds' });
    expect(result.status === 'done' && result.text).toBe('Refunds again.');
    await expect(triage.generate('x', { agent: 'nobody' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(
        /"nobody" is not an agent of the handoff graph of "triage" \(agents: triage, refunds\)/,
      ),
    });
  });
});

describe('handoffs: bad input', () => {
  const refunds = () => agent({ name: 'refunds', model: scriptedModel(['ok']) });

  it('refuses a stored state naming an agent the graph does not have', async () => {
    const triage = agent({ name: 'triage', model: scriptedModel([]), handoffs: [refunds()] });
    const done = await agent({ name: 'triage', model: scriptedModel(['hi']) }).generate('x');
    const state = { ...done.state, agent: 'billing' };
    const error = await triage.resume(state).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringMatching(
        /state\.agent: "billing" is not an agent .*agents: triage, refunds/,
      ),
    });
    await expect(triage.resume({ ...done.state, agent: 3 } as never)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringMatching(/state\.agent: expected the name of an agent/),
    });
    const forged = {
      ...done.state,
      agent: 'refunds',
      handoff: { from: 'x', toolName: 'y', at: 0 },
    };
    await expect(triage.resume(forged)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringMatching(/state\.handoff: agent "x" .* has no handoff "y"/),
    });
  });

  it('refuses two agents of one name in a graph, naming it', async () => {
    const triage = agent({
      name: 'triage',
      model: scriptedModel([]),
      handoffs: [refunds(), handoff(refunds(), { toolName: 'other' })],
    });
    await expect(triage.generate('x')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/two agents named "refunds"/),
    });
  });

  it('refuses a handoff list that is not agents', async () => {
    expect(() => agent({ model: scriptedModel([]), handoffs: [{ name: 'x' }] })).toThrow(
      /handoffs\[0\]: expected an agent \(from agent\(\)\) or a handoff\(agent\)/,
    );
    expect(() => agent({ model: scriptedModel([]), handoffs: 'refunds' as never })).toThrow(
      /handoffs: expected an array of agents and handoff\(\)s/,
    );
    const lazy = agent({ model: scriptedModel([]), handoffs: () => [42 as never] });
    await expect(lazy.generate('x')).rejects.toThrow(/handoffs\(\)\[0\]: expected an agent/);
    const stranger = agent({ model: scriptedModel([]), handoffs: [handoff({ name: 'ghost' })] });
    await expect(stranger.generate('x')).rejects.toThrow(
      /handoff "transfer_to_ghost": expected an agent \(from agent\(\)\) as its target/,
    );
  });

  it('refuses bad handoff() options and a tool name taken twice', async () => {
    expect(() => handoff(refunds(), { toolName: 'no spaces' })).toThrow(
      /breaks the providers' rule/,
    );
    expect(() => handoff(refunds(), { inputFilter: 'x' as never })).toThrow(
      /handoff\(agent, options\)\.inputFilter: expected a function/,
    );
    expect(() => handoff(null as never)).toThrow(/handoff\(agent\): expected an agent/);
    const clash = agent({
      name: 'triage',
      model: scriptedModel([]),
      tools: [tool({ name: 'transfer_to_refunds', execute: () => 'x' })],
      handoffs: [refunds()],
    });
    await expect(clash.generate('x')).rejects.toMatchObject({
      code: 'INVALID_TOOL',
      message: expect.stringMatching(/"transfer_to_refunds" is taken/),
    });
  });

  it('sanitizes the default tool name to the providers’ charset', async () => {
    const model = scriptedModel(['hi']);
    const target = agent({ name: 'Refunds desk (EU)', model: scriptedModel([]) });
    await agent({ name: 'triage', model, handoffs: [target] }).generate('x');
    expect(model.requests[0].tools![0]).toMatchObject({
      name: 'transfer_to_Refunds_desk__EU_',
      description: 'Hand the conversation to Refunds desk (EU)',
    });
  });

  it('refuses an input filter that returns something other than messages', async () => {
    const triage = agent({
      name: 'triage',
      model: scriptedModel([toRefunds()]),
      handoffs: [handoff(refunds(), { inputFilter: () => 'nope' as never })],
    });
    await expect(triage.generate('x')).rejects.toThrow(
      /handoff "transfer_to_refunds" of agent "triage": inputFilter: expected an array of messages/,
    );
  });
});
