/**
 * The agent's tracing, its configuration side: the OpenTelemetry shapes fino uses, the
 * `telemetry` option, the trace a run state keeps, and how `@opentelemetry/api` is loaded.
 * The spans of a run are made in `run-telemetry.ts`.
 */
import { AgentError } from '../agent-error.ts';
import { describe } from '../describe.ts';

/** The span context a run state keeps of the span that started the run (W3C trace ids). */
export interface TraceContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

/** The parts of an OpenTelemetry span fino uses. */
export interface OtelSpan {
  spanContext(): TraceContext;
  setAttribute(key: string, value: string | number | boolean | string[]): unknown;
  addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown;
  addLink?(link: { context: TraceContext & { isRemote?: boolean } }): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The parts of an OpenTelemetry tracer fino uses (`trace.getTracer(…)` returns one). */
export interface OtelTracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: Record<string, string | number | boolean> },
    context?: unknown,
  ): OtelSpan;
}

/** The parts of `@opentelemetry/api` fino uses. */
export interface OtelApi {
  trace: {
    getTracer(name: string): OtelTracer;
    setSpan(context: unknown, span: OtelSpan): unknown;
    isSpanContextValid(context: TraceContext): boolean;
  };
  context: {
    active(): unknown;
    with<T>(context: unknown, fn: () => T): T;
  };
}

/**
 * The agent's `telemetry` option. Spans are made when `@opentelemetry/api` is installed
 * (it is an optional peer dependency, loaded on the first run) and a tracer provider is
 * registered, or `tracer` is given; `false` turns tracing off.
 *
 * @example
 * ```ts
 * import { trace } from '@opentelemetry/api';
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const bot = agent({
 *   model: scriptedModel(['Hello!']),
 *   telemetry: { tracer: trace.getTracer('my-app'), captureContent: true },
 * });
 * await bot.generate('Hi'); // spans: invoke_agent agent > chat scripted
 * ```
 */
export interface TelemetryOptions {
  /** Record prompts, model output, tool arguments and results on spans (default `false`: they may hold personal data). */
  captureContent?: boolean;
  /** The tracer to use instead of the global provider's `trace.getTracer('fino')`. */
  tracer?: OtelTracer;
}

/** The checked `telemetry` option: `undefined` when tracing is off. */
export type TelemetryConfig = { captureContent: boolean; tracer: OtelTracer | undefined };

type Loader = () => Promise<OtelApi | undefined>;

const defaultLoader: Loader = async () => {
  const specifier = '@opentelemetry/api';
  try {
    return (await import(specifier)) as OtelApi;
  } catch {
    return undefined;
  }
};

let loader: Loader = defaultLoader;
let loaded: Promise<OtelApi | undefined> | undefined;

/**
 * Replaces how `@opentelemetry/api` is loaded (a test seam); without an argument,
 * restores the dynamic import. The next run loads again.
 */
export function setTelemetryLoader(next?: Loader): void {
  loader = next ?? defaultLoader;
  loaded = undefined;
}

/** `@opentelemetry/api`, loaded once per loader (`undefined` when it is not installed). */
export function loadOtelApi(): Promise<OtelApi | undefined> {
  loaded ??= loader().catch(() => undefined);
  return loaded;
}

/** Checks the agent's `telemetry` option. */
export function readTelemetry(value: unknown): TelemetryConfig | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return { captureContent: false, tracer: undefined };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).telemetry: expected false or { captureContent?, tracer? }, received ${describe(value)}`,
    );
  }
  const { captureContent = false, tracer } = value as TelemetryOptions;
  if (typeof captureContent !== 'boolean') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).telemetry.captureContent: expected a boolean, received ${describe(captureContent)}`,
    );
  }
  if (tracer !== undefined && typeof (tracer as OtelTracer)?.startSpan !== 'function') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).telemetry.tracer: expected an OpenTelemetry Tracer, received ${describe(tracer)}`,
    );
  }
  return { captureContent, tracer };
}

/** Checks `state.trace` as read from storage: W3C ids, or absent. */
export function checkTraceContext(value: unknown): void {
  if (value === undefined) return;
  const t = value as Partial<TraceContext> | null;
  if (
    t === null ||
    typeof t !== 'object' ||
    typeof t.traceId !== 'string' ||
    !/^[0-9a-f]{32}$/.test(t.traceId) ||
    typeof t.spanId !== 'string' ||
    !/^[0-9a-f]{16}$/.test(t.spanId) ||
    !Number.isInteger(t.traceFlags)
  ) {
    throw new AgentError(
      'INVALID_STATE',
      `state.trace: expected { traceId: 32 hex digits, spanId: 16 hex digits, traceFlags: integer } or absent, received ${describe(value)}`,
    );
  }
}
