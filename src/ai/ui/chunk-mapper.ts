/**
 * The one mapping from fino's agent events to the UI message stream's chunks: pure,
 * deterministic and synchronous, so a live run, a replay of its stored events and a
 * reload all give the same message (the conventions of docs/ui.md).
 */
import type { ToolResultPart } from '../../task/index.ts';
import { type AgentEvent, rejectionPrefix, type StepResult } from '../agent/index.ts';
import type { StopReason, Usage } from '../model/index.ts';
import type { RecordedAgentEvent } from '../session/index.ts';
import { approvalIdOf } from './approval-id.ts';
import { failureChunks, finishReasonOf, jsonObject, jsonValue } from './run-outcome.ts';
import { uiToolErrorText, uiToolOutput } from './tool-output.ts';
import type { FinoMessageMetadata, UIMessageChunk } from './types.ts';

/** Options of a UI message stream of one run. */
export interface UIStreamOptions {
  /** The run's id: the message id (unless `messageId`) and the first half of approval ids. */
  runId?: string;
  /** The assistant message's id (default: the run's id). */
  messageId?: string;
  /** The session thread the run continues, sent in the message metadata. */
  threadId?: string;
  /** The agent that answers (after handoffs, the one handed to), sent in the metadata. */
  agent?: string;
}

/** Turns one run's events into chunks; see {@link uiChunkMapper}. */
export interface UIChunkMapper {
  /** The chunks a stream opens with: `start`, with the message id and metadata. */
  start(): UIMessageChunk[];
  /**
   * The chunks for one event (none, one or several): a live {@link AgentEvent}, or one a
   * session recorded (`Session.events`), whose `finish` keeps no state.
   */
  map(event: AgentEvent | RecordedAgentEvent): UIMessageChunk[];
  /**
   * The chunks for the run's failure, as `streamText` sends one: `data-fino-error` (fino's
   * code), `error`, `finish-step` and a `finish` with reason `error`; an abort is the
   * protocol's `abort` instead.
   */
  fail(error: unknown): UIMessageChunk[];
}

type RunUsage = Pick<Usage, 'inputTokens' | 'outputTokens' | 'totalTokens'>;

/** What the mapper remembers between events. */
interface MapperState {
  step: number;
  stepOpen: boolean;
  /** The text or reasoning part open now, and how many of each the step started. */
  open: { kind: 'text' | 'reasoning'; id: string } | undefined;
  counts: { text: number; reasoning: number };
  /** Tool calls whose approval was requested, by id (a rejection then reads as denied). */
  approvals: Set<string>;
  /** The tool calls this message shows, by id: whether their output was sent. */
  answered: Map<string, boolean>;
  usage: RunUsage | undefined;
  cost: number | undefined;
  agent: string | undefined;
  /** Why the last finished step stopped: the finish reason of a run that is done. */
  lastStop: StopReason | undefined;
}

/**
 * A mapper from one run's {@link AgentEvent}s to `UIMessageChunk`s of one assistant
 * message: pure, deterministic (the same events give the same chunks, with ids like
 * `text-<step>-<n>`) and synchronous, so stored events replay through it.
 *
 * @example
 * ```ts
 * import { uiChunkMapper } from 'fino:ai/ui';
 *
 * const mapper = uiChunkMapper({ runId: 'run_1' });
 * const chunks = [
 *   ...mapper.start(),
 *   ...mapper.map({ type: 'step-start', step: 0 }),
 *   ...mapper.map({ type: 'text-delta', step: 0, text: 'Hi' }),
 * ];
 * console.log(chunks.map((chunk) => chunk.type)); // ['start', 'start-step', 'text-start', 'text-delta']
 * ```
 */
export function uiChunkMapper(options: UIStreamOptions = {}): UIChunkMapper {
  const state: MapperState = {
    step: 0,
    stepOpen: false,
    open: undefined,
    counts: { text: 0, reasoning: 0 },
    approvals: new Set(),
    answered: new Map(),
    usage: undefined,
    cost: undefined,
    agent: options.agent,
    lastStop: undefined,
  };
  const metadata = (status: string): FinoMessageMetadata => ({
    fino: definedOnly({
      runId: options.runId,
      threadId: options.threadId,
      agent: state.agent,
      status,
      usage: state.usage,
      cost: state.cost,
    }),
  });
  return {
    start: () => [
      definedOnly({
        type: 'start' as const,
        messageId: options.messageId ?? options.runId,
        messageMetadata: metadata('running'),
      }),
    ],
    map: (event) => mapEvent(state, event, options.runId ?? '', metadata),
    fail: (error) => {
      const failure = failureChunks(error);
      if (failure.at(-1)?.type === 'abort') return [...closePart(state), ...failure];
      // As `streamText` does, a part the failure cut off gets no end: it stays `streaming`.
      state.open = undefined;
      return [
        ...failure,
        ...closeStep(state),
        { type: 'finish', finishReason: 'error', messageMetadata: metadata('error') },
      ];
    },
  };
}

function mapEvent(
  state: MapperState,
  event: AgentEvent | RecordedAgentEvent,
  runId: string,
  metadata: (status: string) => FinoMessageMetadata,
): UIMessageChunk[] {
  switch (event.type) {
    case 'step-start':
      return stepStart(state, event.step);
    case 'text-delta':
    case 'reasoning-delta':
      return delta(state, event.type === 'text-delta' ? 'text' : 'reasoning', event.text);
    case 'tool-call':
      state.answered.set(event.call.id, false);
      return [
        ...closePart(state),
        {
          type: 'tool-input-available',
          toolCallId: event.call.id,
          toolName: event.call.name,
          input: event.call.args,
        },
      ];
    case 'tool-result':
      return [...closePart(state), toolOutput(state, event.toolName, event.result)];
    case 'tool-pending':
      return [...closePart(state), pendingChunk(state, event.pending, runId)];
    case 'step-finish':
      state.lastStop = event.result.stopReason;
      return [
        ...unsentOutputs(state, event.result),
        ...stepFinish(state, event.result.usage, metadata),
      ];
    case 'finish': {
      const { result } = event;
      state.agent = result.agent;
      const usage = 'state' in result ? result.state.usage : 'usage' in result && result.usage;
      if (usage) takeUsage(state, usage, true);
      const { status } = result;
      return [
        ...closeStep(state),
        {
          type: 'finish',
          finishReason: finishReasonOf(status, state.lastStop),
          messageMetadata: metadata(status),
        },
      ];
    }
    case 'handoff':
      state.agent = event.to;
      return [
        {
          type: 'data-fino-handoff',
          data: { from: event.from, to: event.to, toolCallId: event.toolCallId },
        },
      ];
    default:
      return dataChunks(event);
  }
}

/** The data parts of events the protocol has no chunk for. */
function dataChunks(event: AgentEvent): UIMessageChunk[] {
  switch (event.type) {
    case 'progress': {
      const { toolCallId, toolName, progress } = event;
      const data = { toolCallId, toolName, ...definedOnly({ ...progress }) };
      return [{ type: 'data-fino-progress', id: toolCallId, data, transient: true }];
    }
    case 'log': {
      const { toolCallId, toolName, entry } = event;
      const data = definedOnly({
        toolCallId,
        toolName,
        level: entry.level,
        message: entry.message,
        data: entry.data === undefined ? undefined : jsonValue(entry.data),
      });
      return [{ type: 'data-fino-log', id: toolCallId, data, transient: true }];
    }
    case 'warning':
      return [
        {
          type: 'data-fino-warning',
          data: { step: event.step, warning: jsonObject(event.warning) },
        },
      ];
    case 'context': {
      const { type: _type, step, ...report } = event;
      return [{ type: 'data-fino-context', data: { step, report: jsonObject(report) } }];
    }
    case 'guardrail': {
      const { name, kind, tripped, toolCallId } = event;
      const data = definedOnly({ name, kind, tripped, toolCallId });
      return [{ type: 'data-fino-guardrail', data }];
    }
    default:
      return [];
  }
}

function stepStart(state: MapperState, step: number): UIMessageChunk[] {
  const chunks = closeStep(state);
  state.step = step;
  state.stepOpen = true;
  state.counts = { text: 0, reasoning: 0 };
  chunks.push({ type: 'start-step' });
  return chunks;
}

function stepFinish(
  state: MapperState,
  usage: Usage,
  metadata: (status: string) => FinoMessageMetadata,
): UIMessageChunk[] {
  const chunks = closeStep(state);
  if (takeUsage(state, usage, false)) {
    chunks.push({ type: 'message-metadata', messageMetadata: metadata('running') });
  }
  return chunks;
}

/** Adds a step's usage (or sets the run's, `whole`); true when it changed what was sent. */
function takeUsage(state: MapperState, usage: Usage, whole: boolean): boolean {
  const before = JSON.stringify([state.usage, state.cost]);
  const base =
    whole || !state.usage ? { inputTokens: 0, outputTokens: 0, totalTokens: 0 } : state.usage;
  state.usage = {
    inputTokens: base.inputTokens + usage.inputTokens,
    outputTokens: base.outputTokens + usage.outputTokens,
    totalTokens: base.totalTokens + usage.totalTokens,
  };
  if (typeof usage.cost === 'number') {
    state.cost = whole ? usage.cost : (state.cost ?? 0) + usage.cost;
  }
  return JSON.stringify([state.usage, state.cost]) !== before;
}

function delta(state: MapperState, kind: 'text' | 'reasoning', text: string): UIMessageChunk[] {
  if (text === '') return [];
  const chunks: UIMessageChunk[] = [];
  if (state.open?.kind !== kind) {
    chunks.push(...closePart(state));
    const id = `${kind}-${state.step}-${state.counts[kind]++}`;
    state.open = { kind, id };
    chunks.push({ type: `${kind}-start`, id });
  }
  const id = (state.open as { id: string }).id;
  chunks.push({ type: `${kind}-delta`, id, delta: text });
  return chunks;
}

function closePart(state: MapperState): UIMessageChunk[] {
  const open = state.open;
  if (!open) return [];
  state.open = undefined;
  return [{ type: `${open.kind}-end`, id: open.id }];
}

function closeStep(state: MapperState): UIMessageChunk[] {
  const chunks = closePart(state);
  if (state.stepOpen) chunks.push({ type: 'finish-step' });
  state.stepOpen = false;
  return chunks;
}

/**
 * The outputs of the message's calls that no `tool-result` event showed, at their step's
 * end: a call rejected while the run waited (its decision is the result, no tool runs) —
 * `tool-output-denied` for a denied approval, as `streamText` sends for one.
 */
function unsentOutputs(state: MapperState, step: StepResult): UIMessageChunk[] {
  const unsent = step.toolResults.filter(
    (result) => state.answered.get(result.toolCallId) === false,
  );
  if (unsent.length === 0) return [];
  const names = new Map(step.toolCalls.map((call) => [call.id, call.name]));
  return [
    ...closePart(state),
    ...unsent.map((result) => toolOutput(state, names.get(result.toolCallId) ?? '', result)),
  ];
}

function toolOutput(state: MapperState, toolName: string, result: ToolResultPart): UIMessageChunk {
  const toolCallId = result.toolCallId;
  state.answered.set(toolCallId, true);
  if (!result.isError) {
    return { type: 'tool-output-available', toolCallId, output: uiToolOutput(result) };
  }
  const errorText = uiToolErrorText(result);
  if (state.approvals.has(toolCallId) && errorText.startsWith(rejectionPrefix(toolName))) {
    return { type: 'tool-output-denied', toolCallId };
  }
  return { type: 'tool-output-error', toolCallId, errorText };
}

function pendingChunk(
  state: MapperState,
  pending: Extract<AgentEvent, { type: 'tool-pending' }>['pending'],
  runId: string,
): UIMessageChunk {
  const { toolCallId, toolName } = pending;
  if (pending.kind === 'approval') {
    state.approvals.add(toolCallId);
    return {
      type: 'tool-approval-request',
      approvalId: approvalIdOf(runId, toolCallId),
      toolCallId,
    };
  }
  const data = definedOnly({
    toolCallId,
    toolName,
    reason: pending.reason,
    payload: pending.payload === undefined ? undefined : jsonValue(pending.payload),
  });
  return { type: 'data-fino-suspended', id: toolCallId, data };
}

/** `value` without its `undefined` fields (chunks carry no `undefined`). */
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
