import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { agent, GuardrailTrippedError, guardrail } from '../../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';

describe('guardrails in OpenTelemetry spans', () => {
  it('each verdict is a fino.guardrail event; a trip fails the agent span with GuardrailTrippedError', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const bot = agent({
      name: 'support',
      model: scriptedModel(['Call 555-1234.']),
      telemetry: { tracer: provider.getTracer('test') },
      inputGuardrails: [guardrail({ name: 'topic', check: () => ({ tripped: false }) })],
      outputGuardrails: [
        guardrail({ name: 'pii', check: () => ({ tripped: true, output: 'phone' }) }),
      ],
    });
    await expect(bot.generate('hi')).rejects.toBeInstanceOf(GuardrailTrippedError);
    const span = exporter.getFinishedSpans().find((s) => s.name === 'invoke_agent support')!;
    const guardrails = span.events.filter((e) => e.name === 'fino.guardrail');
    expect(guardrails.map((e) => e.attributes)).toEqual([
      {
        'fino.step': 0,
        'fino.guardrail.name': 'topic',
        'fino.guardrail.kind': 'input',
        'fino.guardrail.tripped': false,
      },
      {
        'fino.step': 0,
        'fino.guardrail.name': 'pii',
        'fino.guardrail.kind': 'output',
        'fino.guardrail.tripped': true,
      },
    ]);
    expect(span.attributes['error.type']).toBe('GuardrailTrippedError');
    expect(span.status.message).toMatch(/output guardrail "pii" tripped/);
  });
});
