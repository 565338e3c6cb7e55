/** The context step on the run's OpenTelemetry span: one `fino.context` event per changed request. */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { agent, summarize } from '../../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';
import { exchanges } from './requests.ts';

describe('context on the run span', () => {
  it('adds a fino.context event with the budget, the tokens and what was left out', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const bot = agent({
      model: scriptedModel(['ok']),
      telemetry: { tracer: provider.getTracer('test') },
      context: {
        maxTokens: 1_000,
        strategy: summarize({ model: scriptedModel(['S.']), keepLast: 2 }),
      },
    });
    await bot.generate([...exchanges(20), { role: 'user', content: 'Now?' }]);
    const [span] = exporter.getFinishedSpans().filter((s) => s.name === 'invoke_agent agent');
    const events = span.events.filter((e) => e.name === 'fino.context');
    expect(events).toHaveLength(1);
    expect(events[0].attributes).toMatchObject({
      'fino.step': 0,
      'fino.context.max_tokens': 1_000,
      'fino.context.dropped': 38,
      'fino.context.cleared': 0,
      'fino.context.summarized_through': 38,
    });
    expect(events[0].attributes?.['fino.context.tokens_before']).toBeGreaterThan(1_000);
    expect(events[0].attributes?.['fino.context.tokens_after']).toBeLessThanOrEqual(1_000);
  });
});
