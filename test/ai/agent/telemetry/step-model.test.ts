/**
 * The `chat` span of each step names the step's model (`prepareStep`'s choice), the
 * model that answered (`gen_ai.response.model`) and each fallback on the way.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../../src/ai/agent/index.ts';
import { ModelError, scriptedModel } from '../../../../src/ai/model/index.ts';
import { echoTool } from '../helpers.ts';

describe('chat spans of steps with their own model', () => {
  it('name the step’s model, the model that answered and each fallback', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test');
    const gpt = scriptedModel(
      [
        { toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'a' } }] },
        new ModelError('openai: 503 overloaded', {
          provider: 'openai',
          status: 503,
          retryable: true,
        }),
      ],
      { id: 'openai:gpt-4.1' },
    );
    const claude = scriptedModel(['Done.'], { id: 'anthropic:claude-sonnet-4-5' });
    const mini = scriptedModel([], { id: 'openai:gpt-4.1-mini' });
    const bot = agent({
      model: mini,
      fallbackModels: [claude],
      tools: [echoTool()],
      telemetry: { tracer },
      prepareStep: () => ({ model: gpt }),
    });
    const result = await bot.generate('Echo a');
    expect(result.status).toBe('done');
    // Spans finish in the order of the steps.
    const chats = exporter.getFinishedSpans().filter((s) => s.name.startsWith('chat '));
    expect(chats.map((s) => [s.name, s.attributes['gen_ai.response.model']])).toEqual([
      ['chat gpt-4.1', 'gpt-4.1'],
      ['chat gpt-4.1', 'claude-sonnet-4-5'],
    ]);
    expect(chats[1].events.map((e) => [e.name, e.attributes?.['fino.model.failed']])).toEqual([
      ['fino.model.fallback', 'openai:gpt-4.1'],
    ]);
    expect(chats[1].events[0].attributes?.['fino.error.message']).toBe('openai: 503 overloaded');
  });
});
