import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, type RunState } from '../../../../src/ai/agent/index.ts';
import { setTelemetryLoader } from '../../../../src/ai/agent/telemetry/telemetry.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test') };
}

const weather = tool({
  name: 'get_weather',
  description: 'Weather in a city.',
  parameters: v.object({ city: v.string() }),
  execute: ({ city }: { city: string }) => `Sunny in ${city}`,
});

const remove = tool({
  name: 'remove_file',
  parameters: v.object({ path: v.string() }),
  requiresApproval: true,
  execute: ({ path }: { path: string }) => `deleted ${path}`,
});

const weatherModel = () =>
  scriptedModel(
    [
      {
        toolCalls: [{ id: 'c1', name: 'get_weather', args: { city: 'Oslo' } }],
        usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      },
      { text: 'Sunny.', usage: { inputTokens: 30, outputTokens: 2, totalTokens: 32 } },
    ],
    { id: 'openai:gpt-4o-mini' },
  );

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const byName = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

afterEach(() => setTelemetryLoader());

describe('OpenTelemetry spans', () => {
  it('records invoke_agent, chat and execute_tool spans of a tool-calling run', async () => {
    const { exporter, tracer } = tracing();
    const bot = agent({
      name: 'forecaster',
      model: weatherModel(),
      tools: [weather],
      telemetry: { tracer },
    });
    const result = await bot.generate('Weather in Oslo?');
    expect(result.status).toBe('done');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat gpt-4o-mini',
      'chat gpt-4o-mini',
      'execute_tool get_weather',
      'invoke_agent forecaster',
    ]);
    const [root] = byName(spans, 'invoke_agent forecaster');
    expect(parentOf(root)).toBeUndefined();
    expect(root.kind).toBe(0); // INTERNAL
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'forecaster',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.conversation.id': result.state.runId,
      'fino.run.status': 'done',
      // the run's totals: 12 + 30 in, 5 + 2 out, at gpt-4o-mini's $0.15 / $0.60 per million
      'gen_ai.usage.input_tokens': 42,
      'gen_ai.usage.output_tokens': 7,
      'fino.usage.cost': 0.0000105,
    });
    const rootId = root.spanContext().spanId;
    const [chat1, chat2] = byName(spans, 'chat gpt-4o-mini');
    for (const chat of [chat1, chat2]) {
      expect(parentOf(chat)).toBe(rootId);
      expect(chat.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(chat.kind).toBe(2); // CLIENT
    }
    expect(chat1.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 5,
      'fino.usage.cost': 0.0000048,
    });
    expect(chat2.attributes['gen_ai.response.finish_reasons']).toEqual(['end']);
    const [exec] = byName(spans, 'execute_tool get_weather');
    expect(parentOf(exec)).toBe(rootId);
    expect(exec.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Weather in a city.',
    });
    // the state remembers the trace that started the run
    expect(result.state.trace).toEqual({
      traceId: root.spanContext().traceId,
      spanId: rootId,
      traceFlags: 1,
    });
  });

  it('captures arguments, results and messages only with captureContent', async () => {
    const { exporter, tracer } = tracing();
    await agent({ model: weatherModel(), tools: [weather], telemetry: { tracer } }).generate(
      'Weather in Oslo?',
    );
    const keys = exporter.getFinishedSpans().flatMap((s) => Object.keys(s.attributes));
    expect(keys.filter((k) => /messages|arguments|result|instructions/.test(k))).toEqual([]);

    const captured = tracing();
    await agent({
      model: weatherModel(),
      instructions: 'Be brief.',
      tools: [weather],
      telemetry: { tracer: captured.tracer, captureContent: true },
    }).generate('Weather in Oslo?');
    const spans = captured.exporter.getFinishedSpans();
    const [exec] = byName(spans, 'execute_tool get_weather');
    expect(exec.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Oslo"}');
    expect(exec.attributes['gen_ai.tool.call.result']).toBe('"Sunny in Oslo"');
    const [chat1] = byName(spans, 'chat gpt-4o-mini');
    expect(chat1.attributes['gen_ai.system_instructions']).toBe('Be brief.');
    expect(JSON.parse(chat1.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
    ]);
    expect(chat1.attributes['gen_ai.output.messages']).toContain('get_weather');
  });

  it('records approvals and decisions as events, and links a resumed run to the trace that started it', async () => {
    const { exporter, tracer } = tracing();
    const model = () =>
      scriptedModel([
        { toolCalls: [{ id: 'c1', name: 'remove_file', args: { path: 'a.txt' } }] },
        'Deleted.',
      ]);
    const first = await agent({ model: model(), tools: [remove], telemetry: { tracer } }).generate(
      'Delete a.txt',
    );
    expect(first.status).toBe('suspended');
    const saved = JSON.parse(JSON.stringify(first.state)) as RunState;

    // another process: a fresh agent whose model starts at the second turn
    const later = scriptedModel(['Deleted.']);
    const second = await agent({ model: later, tools: [remove], telemetry: { tracer } }).resume(
      saved,
      { c1: { approve: true } },
    );
    expect(second.status).toBe('done');

    const [started, resumed] = byName(exporter.getFinishedSpans(), 'invoke_agent agent');
    expect(started.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'fino.approval.requested',
        { 'gen_ai.tool.name': 'remove_file', 'gen_ai.tool.call.id': 'c1' },
      ],
    ]);
    expect(started.attributes['fino.run.status']).toBe('suspended');
    expect(resumed.events.map((e) => e.name)).toEqual(['fino.decision', 'fino.run.resumed']);
    expect(resumed.events[0].attributes).toEqual({
      'gen_ai.tool.call.id': 'c1',
      'fino.decision': 'approve',
    });
    expect(resumed.links.map((l) => l.context.spanId)).toEqual([started.spanContext().spanId]);
    expect(resumed.links[0].context.traceId).toBe(started.spanContext().traceId);
    // the stored trace context is the first run's, kept across resumes
    expect(second.state.trace?.spanId).toBe(started.spanContext().spanId);
  });

  it('marks a failing model request and the run as errors', async () => {
    const { exporter, tracer } = tracing();
    const model = scriptedModel([new TypeError('rate limited')]);
    await expect(agent({ model, telemetry: { tracer } }).generate('go')).rejects.toThrow(
      'rate limited',
    );
    for (const span of exporter.getFinishedSpans()) {
      expect(span.status).toEqual({ code: 2, message: 'rate limited' });
      expect(span.attributes['error.type']).toBe('TypeError');
    }
    expect(exporter.getFinishedSpans()).toHaveLength(2);
  });

  it('runs without spans and without loading anything when @opentelemetry/api is absent', async () => {
    let loads = 0;
    setTelemetryLoader(async () => {
      loads += 1;
      return undefined;
    });
    const { exporter, tracer } = tracing();
    const bot = agent({ model: weatherModel(), tools: [weather], telemetry: { tracer } });
    const result = await bot.generate('Weather in Oslo?');
    expect(result.status).toBe('done');
    await bot.generate('again').catch(() => {});
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(result.state.trace).toBeUndefined();
    expect(loads).toBe(1); // loaded once, then cached
  });

  it('loads nothing with telemetry: false, and a loader that throws counts as absent', async () => {
    let loads = 0;
    setTelemetryLoader(async () => {
      loads += 1;
      throw new Error('Cannot find package');
    });
    await agent({ model: scriptedModel(['hi']), telemetry: false }).generate('go');
    expect(loads).toBe(0);
    const result = await agent({ model: scriptedModel(['hi']) }).generate('go');
    expect(result.status).toBe('done');
    expect(loads).toBe(1);
  });

  it('records cache tokens and cost per request, none for an unpriced model, and totals on a run stopped by its budget', async () => {
    const { exporter, tracer } = tracing();
    const priced = agent({
      model: scriptedModel(
        [
          {
            toolCalls: [{ id: 'c1', name: 'get_weather', args: { city: 'Oslo' } }],
            usage: {
              inputTokens: 2000,
              outputTokens: 10,
              cachedInputTokens: 1500,
              cacheWriteTokens: 100,
            },
          },
          { text: 'Sunny.', usage: { inputTokens: 2100, outputTokens: 5 } },
        ],
        { id: 'anthropic:claude-sonnet-4-5-20250929' },
      ),
      tools: [weather],
      telemetry: { tracer },
      budget: { maxTokens: 1000 },
    });
    const error = await priced.generate('Weather?').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BUDGET_EXCEEDED' });
    const [chat] = byName(exporter.getFinishedSpans(), 'chat claude-sonnet-4-5-20250929');
    // 400 × $3 + 1500 × $0.30 + 100 × $3.75 + 10 × $15 per million
    expect(chat.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 2000,
      'gen_ai.usage.cache_read.input_tokens': 1500,
      'gen_ai.usage.cache_creation.input_tokens': 100,
      'fino.usage.cost': 0.002175,
    });
    const [run] = byName(exporter.getFinishedSpans(), 'invoke_agent agent');
    expect(run.status.code).toBe(2); // ERROR
    expect(run.attributes).toMatchObject({
      'error.type': 'BudgetExceededError',
      'gen_ai.usage.input_tokens': 2000,
      'gen_ai.usage.output_tokens': 10,
      'fino.usage.cost': 0.002175,
    });

    exporter.reset();
    await agent({
      model: scriptedModel(['Hi'], { id: 'acme:mystery' }),
      telemetry: { tracer },
    }).generate('Hello');
    for (const span of exporter.getFinishedSpans()) {
      expect(span.attributes['gen_ai.usage.input_tokens']).toBe(0);
      expect(span.attributes).not.toHaveProperty('fino.usage.cost');
    }
  });

  it('refuses a bad telemetry option', () => {
    const model = scriptedModel([]);
    expect(() =>
      agent({ model, telemetry: { captureContent: 'yes' as unknown as boolean } }),
    ).toThrow('agent(options).telemetry.captureContent: expected a boolean, received string "yes"');
    expect(() => agent({ model, telemetry: { tracer: {} as never } })).toThrow(
      'agent(options).telemetry.tracer: expected an OpenTelemetry Tracer, received object',
    );
  });
});
