/**
 * Attack corpus for agent tracing: a broken tracer or span must never fail a run, and a
 * tampered trace context in a stored state is refused with a clear error.
 */
import { describe, expect, it } from 'vitest';
import { agent, type OtelTracer, type RunState } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

const echo = tool({
  name: 'echo',
  parameters: v.object({ text: v.string() }),
  execute: ({ text }: { text: string }) => text,
});

const run = (tracer: unknown) =>
  agent({
    model: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'hi' } }] }, 'ok']),
    tools: [echo],
    telemetry: { tracer: tracer as OtelTracer },
  }).generate('go');

const boom = () => {
  throw new Error('exporter down');
};

describe('a broken tracer', () => {
  it.each<[string, unknown]>([
    ['startSpan throws', { startSpan: boom }],
    ['startSpan returns null', { startSpan: () => null }],
    [
      'every span method throws',
      {
        startSpan: () => ({
          spanContext: boom,
          setAttribute: boom,
          addEvent: boom,
          addLink: boom,
          setStatus: boom,
          end: boom,
        }),
      },
    ],
    [
      'spanContext returns garbage',
      {
        startSpan: () => ({
          spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 'x' }),
          setAttribute() {},
          addEvent() {},
          setStatus() {},
          end() {},
        }),
      },
    ],
  ])('does not fail the run when %s', async (_name, tracer) => {
    const result = await run(tracer);
    expect(result.status).toBe('done');
    expect(result.state.steps[0].toolResults[0].content).toBe('hi');
    expect(result.state.trace).toBeUndefined();
  });
});

describe('a tampered state.trace', () => {
  it.each<[string, unknown]>([
    ['a string', 'trace'],
    ['short ids', { traceId: 'abc', spanId: 'def', traceFlags: 1 }],
    ['uppercase hex', { traceId: 'A'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }],
    ['flags not an integer', { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: '1' }],
  ])('is refused: %s', async (_name, trace) => {
    const { state } = await agent({ model: scriptedModel(['hi']) }).generate('go');
    const bad = { ...state, trace } as unknown as RunState;
    await expect(agent({ model: scriptedModel(['x']) }).resume(bad)).rejects.toThrow(
      /^state\.trace: expected \{ traceId: 32 hex digits, spanId: 16 hex digits, traceFlags: integer \} or absent, received /,
    );
  });
});
