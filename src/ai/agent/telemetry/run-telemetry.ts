/**
 * The spans of one agent run (GenAI semantic conventions): `invoke_agent` for the run,
 * `chat` per model request, `execute_tool` per tool execution, and span events for
 * approvals, suspensions, decisions and context-window changes.
 */
import type { GenerateRequest, GenerateResult, Model, ToolCall, Usage } from '../../model/index.ts';
import type { AgentEvent, Decisions, RunState, ToolResultPart } from '../types.ts';
import { type SafeSpan, safeTracer } from './safe-tracer.ts';
import { loadOtelApi, type OtelApi, type OtelSpan, type TelemetryConfig } from './telemetry.ts';

// SpanKind and SpanStatusCode values of the OpenTelemetry API (stable across 1.x).
const INTERNAL = 0;
const CLIENT = 2;
const ERROR = 2;

/** What the loop tells the run's tracing: model requests, tool executions, events. */
export interface RunTelemetry {
  /** Adopts the run's state: records where it started, or links to that trace on a resume. */
  attach(state: RunState): void;
  /** The `chat` span of one request to `modelId` (the step's model; default the agent's). */
  chat(
    request: GenerateRequest,
    send: () => Promise<GenerateResult>,
    modelId?: string,
  ): Promise<GenerateResult>;
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
  const api = await loadOtelApi();
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
  const run: RunSpans = {
    api,
    captureContent: config.captureContent,
    child: (name, kind, attributes) => tracer.startSpan(name, { kind, attributes }, parent),
    parent,
    provider,
    modelName,
  };
  return {
    attach: (state) => attachState(api, agentSpan, state),
    chat: (request, send, modelId) => chatSpan(run, request, send, modelId),
    tool: (call, description, execute) => toolSpan(run, call, description, execute),
    observe(event) {
      if (event.type === 'context') {
        agentSpan.addEvent('fino.context', contextAttributes(event));
        return;
      }
      if (event.type === 'handoff') {
        agentSpan.addEvent('fino.handoff', handoffAttributes(event));
        return;
      }
      if (event.type === 'guardrail') {
        agentSpan.addEvent('fino.guardrail', guardrailAttributes(event));
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

/** What the spans under a run's `invoke_agent` span share. */
interface RunSpans {
  api: OtelApi;
  captureContent: boolean;
  /** Starts a span under the agent span. */
  child(name: string, kind: number, attributes: Record<string, string>): SafeSpan;
  /** The context holding the agent span. */
  parent: unknown;
  provider: string;
  modelName: string;
}

/** Records where the run started, or links to that trace when the run resumes. */
function attachState(api: OtelApi, agentSpan: SafeSpan, state: RunState): void {
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
}

/** The `chat {model}` span of one model request. */
async function chatSpan(
  run: RunSpans,
  request: GenerateRequest,
  send: () => Promise<GenerateResult>,
  modelId?: string,
): Promise<GenerateResult> {
  const asked =
    modelId === undefined ? { provider: run.provider, name: run.modelName } : splitModelId(modelId);
  const span = run.child(`chat ${asked.name}`, CLIENT, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': asked.provider,
    'gen_ai.request.model': asked.name,
  });
  if (request.maxTokens !== undefined)
    span.setAttribute('gen_ai.request.max_tokens', request.maxTokens);
  if (request.temperature !== undefined)
    span.setAttribute('gen_ai.request.temperature', request.temperature);
  if (run.captureContent) {
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
    recordAttempts(span, result);
    if (run.captureContent) span.setAttribute('gen_ai.output.messages', json([result.message]));
    return result;
  } catch (error) {
    fail(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** The `execute_tool {name}` span of one tool execution; the tool runs inside it. */
async function toolSpan<T>(
  run: RunSpans,
  call: ToolCall,
  description: string,
  execute: () => Promise<T>,
): Promise<T> {
  const span = run.child(`execute_tool ${call.name}`, INTERNAL, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.name,
    'gen_ai.tool.call.id': call.id,
    'gen_ai.tool.type': 'function',
  });
  if (description) span.setAttribute('gen_ai.tool.description', description);
  if (run.captureContent) span.setAttribute('gen_ai.tool.call.arguments', json(call.args));
  try {
    const result = await run.api.context.with(run.api.trace.setSpan(run.parent, span.raw), execute);
    const r = result as { content?: unknown; isError?: boolean } | null;
    if (r?.isError) fail(span, { name: 'tool_error', message: json(r.content) });
    if (run.captureContent && r?.content !== undefined) {
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
}

/**
 * The model that answered (`gen_ai.response.model`) when it is named, and a
 * `fino.model.fallback` event for each model that failed before it.
 */
function recordAttempts(span: OtelSpan, result: GenerateResult): void {
  if (typeof result.model === 'string') {
    span.setAttribute('gen_ai.response.model', splitModelId(result.model).name);
  }
  for (const attempt of Array.isArray(result.attempts) ? result.attempts.slice(0, -1) : []) {
    const error = attempt.error;
    span.addEvent('fino.model.fallback', {
      'fino.model.failed': attempt.model,
      'error.type': error instanceof Error ? error.name : typeof error,
      'fino.error.message': error instanceof Error ? error.message : String(error),
    });
  }
}

/** A value as span attribute text: its JSON, or `String(value)` when it has none. */
function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Marks a span failed, with the error's type and message. */
function fail(span: OtelSpan, error: unknown): void {
  const type = error instanceof Error ? error.name : typeof error;
  span.setAttribute('error.type', type);
  span.setStatus({
    code: ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/** A handoff as span event attributes: the agents and the model's call (decision 190). */
function handoffAttributes(event: Extract<AgentEvent, { type: 'handoff' }>) {
  return {
    'fino.handoff.from': event.from,
    'fino.handoff.to': event.to,
    'gen_ai.agent.name': event.to,
    'gen_ai.tool.call.id': event.toolCallId,
  };
}

/** What a `guardrail` event says, as span event attributes (decision 195). */
function guardrailAttributes(event: Extract<AgentEvent, { type: 'guardrail' }>) {
  const attributes: Record<string, string | number | boolean> = {
    'fino.step': event.step,
    'fino.guardrail.name': event.name,
    'fino.guardrail.kind': event.kind,
    'fino.guardrail.tripped': event.tripped,
  };
  if (event.toolCallId !== undefined) attributes['gen_ai.tool.call.id'] = event.toolCallId;
  return attributes;
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

/** `openai:gpt-4o-mini` → provider `openai`, model `gpt-4o-mini`; an id without a colon is both. */
function splitModelId(id: string): { provider: string; name: string } {
  const colon = id.indexOf(':');
  return colon > 0
    ? { provider: id.slice(0, colon), name: id.slice(colon + 1) }
    : { provider: id, name: id };
}
