/**
 * The mapping from agent events to UI message chunks: every event type maps to something,
 * the ids are deterministic (a replay gives the same chunks), and what the protocol has no
 * chunk for (suspensions, handoffs, progress, logs) reads back through `ai`'s own reader.
 */
import { describe, expect, it } from 'vitest';
import { type AgentEvent, agent, handoff } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { uiChunkMapper, uiMessageChunks } from '../../../src/ai/ui/index.ts';
import { v } from '../../../src/validate/index.ts';
import { chunkStream, finoAgent, readMessage } from '../../helpers/ui-turns.ts';

async function eventsOf(run: AsyncIterable<AgentEvent>) {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

function replay(events: AgentEvent[], runId = 'run_1') {
  const mapper = uiChunkMapper({ runId });
  return [...mapper.start(), ...events.flatMap((event) => mapper.map(event))];
}

const waiting = tool({
  name: 'ask_user',
  parameters: v.object({ question: v.string() }),
  execute: (_args, ctx) => {
    ctx.progress({ progress: 1, total: 2, message: 'asking' });
    ctx.log('info', 'asked', { n: 1 });
    return ctx.suspend({ reason: 'needs an answer', payload: { choices: ['yes', 'no'] } });
  },
});

describe('uiChunkMapper', () => {
  it('replaying the same events twice gives identical chunks, with deterministic ids', async () => {
    const turns = [
      {
        reasoning: 'hm',
        text: 'Looking.',
        calls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }],
      },
      { text: 'It is 4 °C.' },
    ];
    const events = await eventsOf(finoAgent(turns).stream('hi', { runId: 'run_1' }));
    const first = replay(events);
    expect(replay(events)).toEqual(first);
    expect(
      first
        .filter((c) => 'id' in c && typeof c.id === 'string')
        .map((c) => (c as { id: string }).id),
    ).toEqual([
      'reasoning-0-0',
      'reasoning-0-0',
      'reasoning-0-0',
      'text-0-0',
      'text-0-0',
      'text-0-0',
      'text-1-0',
      'text-1-0',
      'text-1-0',
    ]);
    expect(first[0]).toEqual({
      type: 'start',
      messageId: 'run_1',
      messageMetadata: { fino: { runId: 'run_1', status: 'running' } },
    });
  });

  it('a suspension is a data-fino-suspended part; progress and logs are transient data parts', async () => {
    const bot = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'c1', name: 'ask_user', args: { question: 'ok?' } }] },
      ]),
      tools: [waiting],
    });
    const chunks = replay(await eventsOf(bot.stream('hi', { runId: 'run_1' })));
    expect(chunks).toContainEqual({
      type: 'data-fino-progress',
      id: 'c1',
      transient: true,
      data: { toolCallId: 'c1', toolName: 'ask_user', progress: 1, total: 2, message: 'asking' },
    });
    expect(chunks).toContainEqual({
      type: 'data-fino-log',
      id: 'c1',
      transient: true,
      data: {
        toolCallId: 'c1',
        toolName: 'ask_user',
        level: 'info',
        message: 'asked',
        data: { n: 1 },
      },
    });
    const read = await readMessage(
      chunkStream(
        (async function* () {
          yield* chunks;
        })(),
      ),
    );
    expect(read.errors).toEqual([]);
    expect(read.message.parts.at(-1)).toEqual({
      type: 'data-fino-suspended',
      id: 'c1',
      data: {
        toolCallId: 'c1',
        toolName: 'ask_user',
        reason: 'needs an answer',
        payload: { choices: ['yes', 'no'] },
      },
    });
    expect(read.message.parts.find((p) => p.type === 'tool-ask_user')).toMatchObject({
      state: 'input-available',
    });
  });

  it('a handoff is a data-fino-handoff part and names the new agent in the metadata', async () => {
    const refunds = agent({ name: 'refunds', model: scriptedModel(['Refunded.']) });
    const triage = agent({
      name: 'triage',
      model: scriptedModel([{ toolCalls: [{ id: 'h1', name: 'transfer_to_refunds', args: {} }] }]),
      handoffs: [handoff(refunds)],
    });
    const run = triage.stream('refund please', { runId: 'run_1' });
    const { message, errors } = await readMessage(
      chunkStream(uiMessageChunks(run, { runId: 'run_1' })),
    );
    expect(errors).toEqual([]);
    expect(message.parts).toContainEqual({
      type: 'data-fino-handoff',
      data: { from: 'triage', to: 'refunds', toolCallId: 'h1' },
    });
    expect(message.metadata).toMatchObject({ fino: { agent: 'refunds', status: 'done' } });
  });

  it('a rejected approval reads as output-denied; a failed approved call as output-error', () => {
    const mapper = uiChunkMapper({ runId: 'r' });
    const pending = (toolCallId: string) => ({
      type: 'tool-pending' as const,
      step: 0,
      pending: { kind: 'approval' as const, toolCallId, toolName: 'pay', args: {}, argsHash: 'h' },
    });
    const result = (toolCallId: string, content: string) => ({
      type: 'tool-result' as const,
      step: 0,
      toolName: 'pay',
      result: { type: 'tool_result' as const, toolCallId, content, isError: true },
    });
    expect(mapper.map(pending('a'))).toEqual([
      { type: 'tool-approval-request', approvalId: 'r/a', toolCallId: 'a' },
    ]);
    mapper.map(pending('b'));
    expect(mapper.map(result('a', 'Tool call "pay" was rejected: no'))).toEqual([
      { type: 'tool-output-denied', toolCallId: 'a' },
    ]);
    expect(mapper.map(result('b', 'card declined'))).toEqual([
      { type: 'tool-output-error', toolCallId: 'b', errorText: 'card declined' },
    ]);
  });

  it('every event type maps to at least one chunk', () => {
    const mapper = uiChunkMapper({ runId: 'r' });
    const events: AgentEvent[] = [
      { type: 'step-start', step: 0 },
      { type: 'warning', step: 0, warning: { type: 'other', message: 'dropped' } as never },
      { type: 'context', step: 0, dropped: 2 } as never,
      { type: 'guardrail', step: 0, name: 'pii', kind: 'input', tripped: false },
      { type: 'text-delta', step: 0, text: 'x' },
    ];
    for (const event of events) expect(mapper.map(event).length).toBeGreaterThan(0);
  });

  it('fail(): an abort is the protocol’s abort; an error keeps fino’s code', () => {
    const abort = Object.assign(new Error('stopped'), { name: 'AbortError' });
    expect(uiChunkMapper().fail(abort)).toEqual([{ type: 'abort', reason: 'stopped' }]);
    const budget = Object.assign(new Error('over budget'), { code: 'BUDGET_EXCEEDED' });
    expect(uiChunkMapper().fail(budget)).toEqual([
      { type: 'data-fino-error', data: { code: 'BUDGET_EXCEEDED', message: 'over budget' } },
      { type: 'error', errorText: 'BUDGET_EXCEEDED: over budget' },
      { type: 'finish', finishReason: 'error', messageMetadata: { fino: { status: 'error' } } },
    ]);
  });

  it('fail(): a text the failure cut off gets no end, as streamText leaves it (decision 259)', () => {
    const mapper = uiChunkMapper();
    mapper.map({ type: 'step-start', step: 0 });
    mapper.map({ type: 'text-delta', step: 0, text: 'Half ' });
    const types = mapper.fail(new Error('down')).map((chunk) => chunk.type);
    expect(types).toEqual(['data-fino-error', 'error', 'finish-step', 'finish']);
  });

  it('a call rejected while the run waited shows as denied at its step’s end, once (decision 259)', () => {
    const call = { id: 'c1', name: 'pay', args: {} };
    const paid = { type: 'tool_result' as const, toolCallId: 'c0', content: 'ok' };
    const denied = {
      type: 'tool_result' as const,
      toolCallId: 'c1',
      content: 'Tool call "pay" was rejected: no',
      isError: true,
    };
    const pending = { kind: 'approval', toolCallId: 'c1', toolName: 'pay', args: {} };
    const chunks = replay([
      { type: 'step-start', step: 0 },
      { type: 'tool-call', step: 0, call: { ...call, id: 'c0' } },
      { type: 'tool-result', step: 0, toolName: 'pay', result: paid },
      { type: 'tool-call', step: 0, call },
      { type: 'tool-pending', step: 0, pending } as AgentEvent,
      {
        type: 'step-finish',
        step: 0,
        result: {
          step: 0,
          text: '',
          toolCalls: [{ ...call, id: 'c0' }, call, { ...call, id: 'c9' }],
          toolResults: [paid, denied, { ...denied, toolCallId: 'c9' }],
          stopReason: 'tool_calls',
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        },
      },
    ]);
    const outputs = chunks.filter((chunk) => chunk.type.startsWith('tool-output'));
    // c0's output was sent with its event; c9 is a call this message never showed.
    expect(outputs).toEqual([
      { type: 'tool-output-available', toolCallId: 'c0', output: 'ok' },
      { type: 'tool-output-denied', toolCallId: 'c1' },
    ]);
    const types = chunks.map((chunk) => chunk.type);
    expect(types.indexOf('tool-output-denied')).toBeLessThan(types.indexOf('finish-step'));
  });
});
