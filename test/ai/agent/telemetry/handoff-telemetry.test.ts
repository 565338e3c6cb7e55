/** Each handoff reaches the run's OpenTelemetry spans: an event on the agent span, a span for its tool call. */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';

describe('handoff telemetry', () => {
  it('records a fino.handoff event per handoff and an execute_tool span for its call', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test');
    const refunds = agent({ name: 'refunds', model: scriptedModel(['Refunded.']) });
    const triage = agent({
      name: 'triage',
      model: scriptedModel([{ toolCalls: [{ id: 'h1', name: 'transfer_to_refunds', args: {} }] }]),
      handoffs: [refunds],
      telemetry: { tracer },
    });
    await triage.generate('refund');
    const spans = exporter.getFinishedSpans();
    const run = spans.find((s) => s.name === 'invoke_agent triage')!;
    expect(run.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'fino.handoff',
        {
          'fino.handoff.from': 'triage',
          'fino.handoff.to': 'refunds',
          'gen_ai.agent.name': 'refunds',
          'gen_ai.tool.call.id': 'h1',
        },
      ],
    ]);
    expect(spans.map((s) => s.name)).toContain('execute_tool transfer_to_refunds');
  });
});
