/**
 * OpenTelemetry spans of workflow runs, through `@opentelemetry/api` when the
 * application installs it (an optional peer, as for agents — decision 086): one span per
 * execution of a run (`workflow.run <workflow id>`), and a child span per live step,
 * tool call, agent and child run (`workflow.step <id>`). Replayed operations get no span:
 * they did no work.
 */
import type { OtelSpan, OtelTracer } from '../ai/agent/index.ts';
import { errorMessage } from '../internal/thrown-value.ts';

/** The `telemetry` option of a worker: `false` turns spans off; `tracer` replaces the global provider's. */
export interface WorkflowTelemetryOptions {
  tracer?: OtelTracer;
}

/** Starts a span under `parent` (when given); `undefined` when tracing is off. */
export type SpanStarter = (
  name: string,
  attributes: Record<string, string | number | boolean>,
  parent?: OtelSpan,
) => OtelSpan;

interface OtelApi {
  trace: {
    getTracer(name: string): OtelTracer;
    setSpan(context: unknown, span: OtelSpan): unknown;
  };
  context: { active(): unknown };
}

let api: Promise<OtelApi | undefined> | undefined;
const loadApi = () => {
  const specifier = '@opentelemetry/api';
  api ??= import(specifier).then(
    (module) => module as OtelApi,
    () => undefined,
  );
  return api;
};

const INTERNAL = 0;
const ERROR = 2;

/** The span starter the option asks for: `undefined` when off, or when no tracer is at hand. */
export async function spanStarter(
  option: false | WorkflowTelemetryOptions | undefined,
): Promise<SpanStarter | undefined> {
  if (option === false) return undefined;
  const otel = await loadApi();
  const tracer = option?.tracer ?? otel?.trace.getTracer('fino');
  if (!tracer) return undefined;
  return (name, attributes, parent) =>
    tracer.startSpan(
      name,
      { kind: INTERNAL, attributes },
      parent && otel ? otel.trace.setSpan(otel.context.active(), parent) : undefined,
    );
}

/** Ends a span, marking it failed with the error's message when there is one. */
export function endSpan(span: OtelSpan | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) span.setStatus({ code: ERROR, message: errorMessage(error) });
  span.end();
}
