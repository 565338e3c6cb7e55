import type { GenerateRequest, GenerateResult, Model, ToolCall, Usage } from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './describe.ts';
import type { AgentEvent, Decisions, RunState, ToolResultPart } from './types.ts';

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

// SpanKind and SpanStatusCode values of the OpenTelemetry API (stable across 1.x).
const INTERNAL = 0;
const CLIENT = 2;
const ERROR = 2;

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

/** What the loop tells the run's tracing: model requests, tool executions, events. */
export interface RunTelemetry {
  /** Adopts the run's state: records where it started, or links to that trace on a resume. */
  attach(state: RunState): void;
  chat(request: GenerateRequest, send: () => Promise<GenerateResult>): Promise<GenerateResult>;
  tool<T extends ToolResultPart | unknown>(
    call: ToolCall,
    description: string,
    execute: () => Promise<T>,
  ): Promise<T>;
  /** Records a run event (approvals, suspensions) on the agent span. */
  observe(event: AgentEvent): void;
  decisions(decisions: Decisions): void;
  end(outcome: { status: string } | { error: unknown }): void;
}

const off: RunTelemetry = {
  attach() {},
  chat: (_request, send) => send(),
  tool: (_call, _description, execute) => execute(),
  observe() {},
  decisions() {},
  end() {},
};

/** Starts the `invoke_agent {name}` span of a run, or a no-op when tracing is off or unavailable. */
export async function startRunTelemetry(
  config: TelemetryConfig | undefined,
  agentName: string,
  model: Model,
): Promise<RunTelemetry> {
  if (!config) return off;
  loaded ??= loader().catch(() => undefined);
  const api = await loaded;
  if (!api) return off;
  const tracer = safeTracer(config.tracer ?? api.trace.getTracer('fino'));
  const { provider, name: modelName } = splitModelId(model.id);
  const agentSpan = tracer.startSpan(
    `invoke_agent ${agentName}`,
    {
      kind: INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': agentName,
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': modelName,
      },
    },
    api.context.active(),
  );
  const parent = api.trace.setSpan(api.context.active(), agentSpan.raw);
  const json = (value: unknown) => {
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  };
  const fail = (span: OtelSpan, error: unknown) => {
    const type = error instanceof Error ? error.name : typeof error;
    span.setAttribute('error.type', type);
    span.setStatus({
      code: ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
  };
  return {
    attach(state) {
      agentSpan.setAttribute('gen_ai.conversation.id', state.runId);
      const own = agentSpan.spanContext();
      if (state.trace) {
        agentSpan.addLink?.({ context: { ...state.trace, isRemote: true } });
        agentSpan.addEvent('fino.run.resumed', {
          'fino.run.started_trace_id': state.trace.traceId,
          'fino.run.started_span_id': state.trace.spanId,
        });
      } else if (api.trace.isSpanContextValid(own) && Number.isInteger(own.traceFlags)) {
        state.trace = { traceId: own.traceId, spanId: own.spanId, traceFlags: own.traceFlags };
      }
    },
    async chat(request, send) {
      const span = tracer.startSpan(
        `chat ${modelName}`,
        {
          kind: CLIENT,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': provider,
            'gen_ai.request.model': modelName,
          },
        },
        parent,
      );
      if (request.maxTokens !== undefined)
        span.setAttribute('gen_ai.request.max_tokens', request.maxTokens);
      if (request.temperature !== undefined)
        span.setAttribute('gen_ai.request.temperature', request.temperature);
      if (config.captureContent) {
        if (request.system !== undefined)
          span.setAttribute('gen_ai.system_instructions', request.system);
        span.setAttribute('gen_ai.input.messages', json(request.messages));
      }
      try {
        const result = await send();
        span.setAttribute('gen_ai.response.finish_reasons', [
          result.rawStopReason ?? result.stopReason,
        ]);
        recordUsage(span, result.usage);
        if (config.captureContent)
          span.setAttribute('gen_ai.output.messages', json([result.message]));
        return result;
      } catch (error) {
        fail(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    async tool(call, description, execute) {
      const span = tracer.startSpan(
        `execute_tool ${call.name}`,
        {
          kind: INTERNAL,
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': call.name,
            'gen_ai.tool.call.id': call.id,
            'gen_ai.tool.type': 'function',
          },
        },
        parent,
      );
      if (description) span.setAttribute('gen_ai.tool.description', description);
      if (config.captureContent) span.setAttribute('gen_ai.tool.call.arguments', json(call.args));
      try {
        const result = await api.context.with(api.trace.setSpan(parent, span.raw), execute);
        const r = result as { content?: unknown; isError?: boolean } | null;
        if (r?.isError) fail(span, { name: 'tool_error', message: json(r.content) });
        if (config.captureContent && r?.content !== undefined) {
          span.setAttribute('gen_ai.tool.call.result', json(r.content));
        }
        return result;
      } catch (error) {
        if ((error as { name?: unknown } | null)?.name === 'SuspendSignal') {
          span.addEvent('fino.tool.suspended');
        } else fail(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    observe(event) {
      if (event.type === 'context') {
        agentSpan.addEvent('fino.context', contextAttributes(event));
        return;
      }
      if (event.type !== 'tool-pending') return;
      const { pending } = event;
      agentSpan.addEvent(
        pending.kind === 'approval' ? 'fino.approval.requested' : 'fino.tool.suspended',
        { 'gen_ai.tool.name': pending.toolName, 'gen_ai.tool.call.id': pending.toolCallId },
      );
    },
    decisions(decisions) {
      for (const [id, decision] of Object.entries(decisions)) {
        const kind = 'approve' in decision ? 'approve' : 'reject' in decision ? 'reject' : 'resume';
        agentSpan.addEvent('fino.decision', { 'gen_ai.tool.call.id': id, 'fino.decision': kind });
      }
    },
    end(outcome) {
      const ended = ('error' in outcome ? outcome.error : outcome) as { state?: RunState } | null;
      const usage = ended?.state?.usage;
      if (usage !== null && typeof usage === 'object') recordUsage(agentSpan, usage);
      if ('error' in outcome) fail(agentSpan, outcome.error);
      else agentSpan.setAttribute('fino.run.status', outcome.status);
      agentSpan.end();
    },
  };
}

/** What a `context` event says, as span event attributes (decision 144). */
function contextAttributes(event: Extract<AgentEvent, { type: 'context' }>) {
  const attributes: Record<string, number> = {
    'fino.step': event.step,
    'fino.context.max_tokens': event.maxTokens,
    'fino.context.tokens_before': event.tokens.before,
    'fino.context.tokens_after': event.tokens.after,
    'fino.context.dropped': event.dropped,
    'fino.context.cleared': event.cleared,
  };
  if (event.summarized) attributes['fino.context.summarized_through'] = event.summarized.through;
  return attributes;
}

/**
 * Puts usage on a span: tokens as the GenAI conventions name them (cached and
 * cache-write tokens as parts of the input), and the cost in USD as `fino.usage.cost`
 * when it is known (no attribute when it is `'unknown'`).
 */
function recordUsage(span: OtelSpan, usage: Usage): void {
  const attributes: [string, number | undefined][] = [
    ['gen_ai.usage.input_tokens', usage.inputTokens],
    ['gen_ai.usage.output_tokens', usage.outputTokens],
    ['gen_ai.usage.cache_read.input_tokens', usage.cachedInputTokens],
    ['gen_ai.usage.cache_creation.input_tokens', usage.cacheWriteTokens],
    ['fino.usage.reasoning_tokens', usage.reasoningTokens],
    ['fino.usage.cost', typeof usage.cost === 'number' ? usage.cost : undefined],
  ];
  for (const [key, value] of attributes) {
    if (typeof value === 'number' && Number.isFinite(value)) span.setAttribute(key, value);
  }
}

/** A guarded span, and the tracer's own span to put in a context (other code may use all of its methods). */
type SafeSpan = OtelSpan & { raw: OtelSpan };

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
function safeTracer(tracer: OtelTracer): {
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

/** `openai:gpt-4o-mini` → provider `openai`, model `gpt-4o-mini`; an id without a colon is both. */
function splitModelId(id: string): { provider: string; name: string } {
  const colon = id.indexOf(':');
  return colon > 0
    ? { provider: id.slice(0, colon), name: id.slice(colon + 1) }
    : { provider: id, name: id };
}
