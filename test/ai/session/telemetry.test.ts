import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { memoryStore, session } from '../../../src/ai/session/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';

const ship = tool({
  name: 'ship',
  parameters: v.object({ order: v.string() }),
  requiresApproval: true,
  execute: ({ order }: { order: string }) => `shipped ${order}`,
});

describe('session runs and tracing', () => {
  it('link the run continued after an approval to the trace that started it', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test');
    const store = memoryStore();
    const model = scriptedModel([
      { toolCalls: [{ id: 'ship_1', name: 'ship', args: { order: 'A1' } }] },
      'Shipped.',
    ]);
    const bot = agent({ name: 'shop', model, tools: [ship], telemetry: { tracer } });
    const started = await session({ store, agent: bot }).start('Ship A1');
    expect(started.status).toBe('suspended');

    // another worker, with its own session object, continues the stored run
    const done = await session({ store, agent: bot }).approve({
      runId: started.runId,
      toolCallId: 'ship_1',
    });
    expect(done.status).toBe('done');

    const [first, second] = exporter
      .getFinishedSpans()
      .filter((span) => span.name === 'invoke_agent shop');
    expect(second.links).toHaveLength(1);
    expect(second.links[0].context.traceId).toBe(first.spanContext().traceId);
    expect(second.links[0].context.spanId).toBe(first.spanContext().spanId);
    expect(second.events.map((e) => e.name)).toContain('fino.run.resumed');
    expect(first.attributes['gen_ai.conversation.id']).toBe(started.runId);
    expect(second.attributes['gen_ai.conversation.id']).toBe(started.runId);
  });
});
