/** A tracer whose spans never throw, so a broken tracer or exporter cannot fail a run. */
import type { OtelSpan, OtelTracer, TraceContext } from './telemetry.ts';

/** A guarded span, and the tracer's own span to put in a context (other code may use all of its methods). */
export type SafeSpan = OtelSpan & { raw: OtelSpan };

const noopSpan: OtelSpan = {
  spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 }),
  setAttribute() {},
  addEvent() {},
  setStatus() {},
  end() {},
};

/**
 * A tracer whose spans never throw: a broken tracer or exporter must not fail a run,
 * so a throwing `startSpan` gives a no-op span and each span method swallows errors.
 */
export function safeTracer(tracer: OtelTracer): {
  startSpan(...args: Parameters<OtelTracer['startSpan']>): SafeSpan;
} {
  const guard =
    <A extends unknown[], R>(fn: (...args: A) => R, fallback: R) =>
    (...args: A): R => {
      try {
        return fn(...args);
      } catch {
        return fallback;
      }
    };
  return {
    startSpan(name, options, context) {
      let span: OtelSpan;
      try {
        span = tracer.startSpan(name, options, context);
        if (span === null || typeof span !== 'object') return { ...noopSpan, raw: noopSpan };
      } catch {
        return { ...noopSpan, raw: noopSpan };
      }
      const context_ = guard(() => span.spanContext(), noopSpan.spanContext());
      return {
        raw: span,
        spanContext: () => {
          const c = context_();
          return c !== null && typeof c === 'object' ? c : noopSpan.spanContext();
        },
        setAttribute: guard(
          (k: string, v: string | number | boolean | string[]) => span.setAttribute(k, v),
          undefined,
        ),
        addEvent: guard(
          (n: string, a?: Record<string, string | number | boolean>) => span.addEvent(n, a),
          undefined,
        ),
        addLink: guard(
          (link: { context: TraceContext & { isRemote?: boolean } }) => span.addLink?.(link),
          undefined,
        ),
        setStatus: guard(
          (status: { code: number; message?: string }) => span.setStatus(status),
          undefined,
        ),
        end: guard(() => span.end(), undefined),
      };
    },
  };
}
