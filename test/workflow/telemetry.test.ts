/**
 * OpenTelemetry spans of workflows: one per execution of a run, one per live step under
 * it, none for replayed steps; a failed step's span is marked failed.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { worker, workflow } from '../../src/workflow/index.ts';
import { memoryStorePerTest } from '../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

/** A tracer provider whose finished spans the test reads from `exporter`. */
function inMemoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider };
}

describe('workflow spans', () => {
  it('spans each execution and each live step; replayed steps get none', async () => {
    const store = fresh();
    const { exporter, provider } = inMemoryTracing();
    const flow = workflow({
      id: 'traced',
      async run(ctx) {
        await ctx.step('load', () => 1);
        await ctx.waitForSignal('go');
        try {
          await ctx.step('fail', () => {
            throw new Error('down');
          });
        } catch {
          // handled by the workflow
        }
      },
    });
    const w = worker({
      store,
      workflows: [flow],
      telemetry: { tracer: provider.getTracer('test') },
    });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    await flow.signal({ store, runId, name: 'go' });
    await w.drain();
    const spans = exporter.getFinishedSpans();
    const names = spans.map((s: ReadableSpan) => s.name);
    expect(names.filter((n) => n === 'workflow.run traced')).toHaveLength(2);
    expect(names.filter((n) => n === 'workflow.step load')).toHaveLength(1); // not again on replay
    const failed = spans.find((s) => s.name === 'workflow.step fail')!;
    expect(failed.status).toEqual({ code: 2, message: 'step "fail" failed: down' });
    const runSpans = spans.filter((s) => s.name === 'workflow.run traced');
    const load = spans.find((s) => s.name === 'workflow.step load')!;
    expect(load.parentSpanContext?.spanId).toBe(runSpans[0].spanContext().spanId);
    expect(load.attributes).toMatchObject({
      'fino.workflow.run_id': runId,
      'fino.workflow.step.kind': 'step',
    });
    expect(runSpans[0].attributes['fino.workflow.execution.end']).toBe('park');
  });

  it('ends the span of an execution that continued as new OK, saying so', async () => {
    const store = fresh();
    const { exporter, provider } = inMemoryTracing();
    const looping = workflow({
      id: 'looping',
      async run(ctx, generation: number) {
        await ctx.step('work', () => generation);
        if (generation === 0) return ctx.continueAsNew(1);
        return generation;
      },
    });
    const w = worker({
      store,
      workflows: [looping],
      pollMs: 10,
      telemetry: { tracer: provider.getTracer('test') },
    });
    await w.start();
    try {
      const { runId } = await looping.start(0, { store });
      expect(await looping.result(runId, { store })).toBe(1);
      const [first, last] = exporter
        .getFinishedSpans()
        .filter((s: ReadableSpan) => s.name === 'workflow.run looping');
      expect(first.status).toEqual({ code: 0 }); // not marked failed by the unwinding throw
      expect(first.attributes).toMatchObject({
        'fino.workflow.run_id': runId,
        'fino.workflow.execution.end': 'continued',
        'fino.workflow.continued_to': (await looping.get(runId, { store })).continuedTo,
      });
      expect(last.attributes['fino.workflow.execution.end']).toBe('returned');
    } finally {
      await w.stop();
    }
  });
});
