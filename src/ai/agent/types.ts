import type { LogEntry, Progress } from '../../task/index.ts';
import type {
  ContentPart,
  ModelMessage,
  ModelWarning,
  StopReason,
  ToolCall,
  Usage,
} from '../model/index.ts';
import type { Budget } from './budget.ts';
import type { ContextReport, ContextState } from './context/index.ts';
import type { GuardrailKind } from './guardrail.ts';
import type { GuardrailState } from './guardrail-state.ts';
import type { RunHooks } from './hooks.ts';
import type { TraceContext } from './telemetry/index.ts';

/** One tool result as it appears in the conversation. */
export type ToolResultPart = Extract<ContentPart, { type: 'tool_result' }>;

/** What a run starts from: a user message as text, or a whole conversation. */
export type AgentInput = string | ModelMessage[];

/** The decision an approval policy makes for one tool call. */
export type ApprovalAnswer = 'allow' | 'deny' | 'ask';

/** One finished step: a model turn and the results of the tool calls it made. */
export interface StepResult {
  /** Zero-based index of the step in the run. */
  step: number;
  /** The text of the model's turn. */
  text: string;
  toolCalls: ToolCall[];
  /** One result per tool call, in the calls' order (empty until the step's calls are settled). */
  toolResults: ToolResultPart[];
  stopReason: StopReason;
  usage: Usage;
  /**
   * The id of the model that answered (`provider:model`, as `Model.id`): the agent's
   * model, the one `prepareStep` chose, or the fallback model that answered.
   */
  model?: string;
  /** The tools offered in this step, when not all were (`activeTools`, `prepareStep`). */
  activeTools?: string[];
}

/**
 * A tool call waiting for the outside world: an approval decision (`kind: 'approval'`)
 * or the answer to a suspension (`kind: 'suspend'`, with the tool's reason and payload).
 */
export interface PendingCall {
  kind: 'approval' | 'suspend';
  toolCallId: string;
  toolName: string;
  args: unknown;
  /** SHA-256 of the arguments' canonical JSON: an approval holds for exactly these arguments. */
  argsHash: string;
  /** The suspension's message. */
  reason?: string;
  /** The suspension's payload: whatever the resuming side needs. */
  payload?: unknown;
  risk?: string;
  sideEffects?: boolean;
}

/**
 * The answer to one pending call: approve it (it then runs exactly once), reject it
 * (the model gets an `isError` result with the reason), or resume a suspension with a
 * value (the tool runs again with the same arguments and `ctx.resumeValue` set).
 * `argsHash`, when given, must equal the pending call's: the approver approves exactly
 * the arguments they saw.
 */
export type Decision =
  | { approve: true; argsHash?: string }
  | { reject: string; argsHash?: string }
  | { resume: unknown; argsHash?: string };

/** Decisions by `toolCallId`. Calls without a decision stay pending. */
export type Decisions = Record<string, Decision>;

/** A call of the open turn that a decision cleared to run. */
export interface ClearedCall {
  toolCallId: string;
  /** `approve`: run without asking again; `resume`: run again with `resumeValue`. */
  kind: 'approve' | 'resume';
  resumeValue?: unknown;
}

/** The model turn whose tool calls are not all settled yet; its calls are `steps[step].toolCalls`. */
export interface OpenTurn {
  step: number;
  /** Results so far, in the order they completed. */
  results: ToolResultPart[];
  pending: PendingCall[];
  cleared: ClearedCall[];
}

/**
 * Everything a run needs to continue, as plain JSON: it survives `JSON.stringify`, a
 * file or a database, another process and `JSON.parse`. `version` changes when the
 * shape does; `resume` refuses a state of another version.
 */
export interface RunState {
  version: 1;
  /** Stable for the whole run, across resumes: tool calls' idempotency keys derive from it. */
  runId: string;
  /** The conversation (without the agent's instructions). */
  messages: ModelMessage[];
  steps: StepResult[];
  usage: Usage;
  /** Present while the last model turn has tool calls without results. */
  turn?: OpenTurn;
  /** The name of the active agent, after a handoff (absent: the agent the run was started or resumed on). */
  agent?: string;
  /** The handoff that made the active agent active: its source, its tool, and the message index it happened at. */
  handoff?: { from: string; toolName: string; at: number };
  /** Every distinct provider warning of the run so far (absent while there is none). */
  warnings?: ModelWarning[];
  /** The validated structured answer, once the model gave one (agents with `output`). */
  output?: unknown;
  /** Set once the run has spent its one repair turn on an answer that failed the output schema. */
  outputRepaired?: boolean;
  /** Full tool results that were cut to the result budget; `read_result` pages through them. */
  results?: StoredResult[];
  /** The trace context of the span that started the run: a resumed run links to it. */
  trace?: TraceContext;
  /**
   * What the context step keeps: the summary that stands for the first `through`
   * messages (sent at the end of the system prompt instead of them), from `summarize()`
   * or the run option `summary`.
   */
  context?: ContextState;
  /** The guardrails' record: every trip, and what waits for a verdict (absent while empty; decision 196). */
  guardrails?: GuardrailState;
  /**
   * With the agent's `stateSecret`: `hmac-sha256:` and the HMAC of the rest of the state
   * (its canonical JSON). `resume()` and `step()` refuse a state whose signature does not
   * match (decision 133).
   */
  signature?: string;
}

/** A tool result that was longer than its budget, kept whole for `read_result`. */
export interface StoredResult {
  /** What `read_result` is called with: the tool call's id (made unique within the run). */
  id: string;
  toolName: string;
  content: string | ContentPart[];
  /** The budget the result was cut to; each `read_result` chunk has the same. */
  maxChars: number;
  /** The content's size: text in characters, media by their base64 length. */
  size: number;
}

/** A run that finished: the model answered without calling tools, or a stop condition held. */
export interface DoneResult<Output = unknown> {
  status: 'done';
  /** The text of the last model turn. */
  text: string;
  /**
   * With the agent's `output` schema: the final answer, parsed and validated (typed from
   * the schema where it can be). `undefined` without one, or when a stop condition ended
   * the run before the model's final answer.
   */
  output: Output | undefined;
  /** Every distinct warning the model's provider reported during the run (dropped media, schema rewrites…). */
  warnings: ModelWarning[];
  messages: ModelMessage[];
  steps: StepResult[];
  usage: Usage;
  /** The final state: continue the conversation from it, or store it. */
  state: RunState;
  /** The name of the agent that finished the run (another than the one started, after a handoff). */
  agent: string;
}

/** A run waiting for decisions on its pending calls; pass `state` to `resume`. */
export interface SuspendedResult {
  status: 'suspended';
  pending: PendingCall[];
  state: RunState;
  /** The name of the agent whose calls wait (the active agent). */
  agent: string;
}

/** How a run ended: done, or suspended with pending calls. */
export type RunResult<Output = unknown> = DoneResult<Output> | SuspendedResult;

/** What `agent.step()` returns: a run result, or `running` when more steps are due. */
export type StepOutcome<Output = unknown> =
  | RunResult<Output>
  | { status: 'running'; state: RunState };

/** Options of one run (`generate`, `stream`, `step`, `resume`). */
export interface AgentRunOptions extends RunHooks {
  /** Aborting it stops the run with an `AbortError` and cancels running tools. */
  signal?: AbortSignal;
  /** The run's id; generated once when absent, then kept in the state. Ignored when resuming. */
  runId?: string;
  /**
   * Earlier messages of the conversation, put before the input (a copy: the array is not
   * changed); `result.messages` starts with them. Each is checked like an input message.
   * Ignored when resuming (the state has them). For a conversation kept in a store, use
   * the threads of `fino:ai/session` instead.
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * const bot = agent({ model: scriptedModel(['Paris.', 'About 2.1 million.']) });
   * const first = await bot.generate('Capital of France?');
   * const second = await bot.generate('How many people live there?', {
   *   history: first.status === 'done' ? first.messages : [],
   * });
   * if (second.status === 'done') console.log(second.messages.length, second.text); // 4 About 2.1 million.
   * ```
   */
  history?: ModelMessage[];
  /**
   * This run's limits, over the agent's `budget` (each limit given replaces the agent's;
   * `Infinity` lifts one): how a run stopped with `BUDGET_EXCEEDED` is resumed with more.
   *
   * @example
   * ```ts
   * import { agent, BudgetExceededError } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * const bot = agent({
   *   model: scriptedModel([{ text: 'Hi!', usage: { inputTokens: 900, outputTokens: 100 } }]),
   *   budget: { maxTokens: 500 },
   * });
   * const result = await bot.generate('Hello', { budget: { maxTokens: 5_000 } });
   * console.log(result.status); // 'done'
   * console.log(BudgetExceededError.name); // 'BudgetExceededError'
   * ```
   */
  budget?: Budget;
  /**
   * Called with every event of the run, in order — the same events `stream()` yields,
   * text and reasoning deltas included (the model is asked in streaming mode), ending
   * with `finish` when the run is done or suspended — whether the run was started with
   * `generate`, `resume`, `step` or `stream`. Called synchronously; a throw fails the run.
   * `fino:ai/session` records a run's events through it (`session({ events: true })`).
   *
   * @example
   * ```ts
   * import { agent } from 'fino:ai/agent';
   * import { scriptedModel } from 'fino:ai/model';
   *
   * const bot = agent({ model: scriptedModel(['Hello!']) });
   * const types: string[] = [];
   * await bot.generate('Hi', { onEvent: (event) => types.push(event.type) });
   * console.log(types.includes('text-delta'), types.at(-1)); // true finish
   * ```
   */
  onEvent?(event: AgentEvent): void;
  /**
   * Called and awaited with a fresh copy of the state (the state itself with
   * `checkpointCopy: false`) after each model turn is appended
   * and after each tool result (before the next tool call starts or the next model
   * request), so a store can persist every completed result before more side effects.
   * `info.reason` says which point it is, so a store that keeps what it needs elsewhere
   * can skip the writes it does not need (see {@link CheckpointReason}).
   * When it throws, the run stops with that error.
   */
  onCheckpoint?(state: RunState, info: CheckpointInfo): void | Promise<void>;
  /**
   * Whether `onCheckpoint` receives a copy of the state (default `true`). With `false`
   * it receives the run's live state, which the run goes on changing as soon as the hook
   * returns or first awaits: for a hook that serialises the state before either and keeps
   * no reference to it, this saves a deep copy per checkpoint (decision 089).
   *
   * @example
   * ```ts
   * import type { AgentRunOptions } from 'fino:ai/agent';
   *
   * const saved: string[] = [];
   * const options: AgentRunOptions = {
   *   checkpointCopy: false,
   *   onCheckpoint: (state) => {
   *     saved.push(JSON.stringify(state)); // read at once, not kept
   *   },
   * };
   * console.log(options.checkpointCopy); // false
   * ```
   */
  checkpointCopy?: boolean;
  /**
   * A summary of what came before this run's messages (e.g. a thread's latest
   * `state.context.summary.text`): sent at the end of the system prompt of every request,
   * and the starting point of `summarize()` (as `state.context.summary = { text, through: 0 }`).
   * Taken only into a state without steps or summary (a new run): a resumed state carries its own.
   */
  summary?: string;
  /**
   * The agent of the handoff graph a new run starts with, by name, instead of the one it is
   * started on (a session thread passes the agent its last run finished with). Ignored
   * when resuming: the state names its active agent.
   */
  agent?: string;
}

/**
 * Where in the run a checkpoint is taken:
 * - `model-turn`: a model turn that asks for tools (or a structured-output repair) was
 *   appended; its tool calls run next, so it must be stored for exactly-once.
 * - `tool-outcome`: a tool call has its result or pending entry; stored so that it never
 *   runs again.
 * - `decisions`: `resume` applied its decisions; derivable from the state before and the
 *   decisions, for a caller that stores the decisions itself.
 * - `turn-closed`: the open turn's results became a message; derivable from the last
 *   `tool-outcome` checkpoint (or the `decisions` one).
 * - `final`: the model's last turn; the same state is in the run's result.
 * - `aborted`: the caller aborted; the open turn's calls were answered "aborted".
 * - `context`: the context step wrote a summary (`state.context.summary`) before a model
 *   request; stored so that a resumed run does not ask for it again.
 * - `guardrail-tripped`: a guardrail tripped and the run stops; the state records the
 *   trip (`state.guardrails.tripped`) and, for an input guardrail, the discarded turn's usage.
 */
export type CheckpointReason =
  | 'model-turn'
  | 'tool-outcome'
  | 'decisions'
  | 'turn-closed'
  | 'final'
  | 'aborted'
  | 'context'
  | 'guardrail-tripped';

/** What `onCheckpoint` is told besides the state. */
export interface CheckpointInfo {
  reason: CheckpointReason;
}

/** Events of a streamed run, in order. */
export type AgentEvent =
  | { type: 'step-start'; step: number }
  | { type: 'text-delta'; step: number; text: string }
  /** Reasoning (thinking) text as the model streams it. */
  | { type: 'reasoning-delta'; step: number; text: string }
  /** A provider warning, the first time the run meets it. */
  | { type: 'warning'; step: number; warning: ModelWarning }
  | { type: 'tool-call'; step: number; call: ToolCall }
  | { type: 'tool-result'; step: number; toolName: string; result: ToolResultPart }
  | { type: 'tool-pending'; step: number; pending: PendingCall }
  /** A running tool's `ctx.progress()` update (decision 094). */
  | { type: 'progress'; step: number; toolCallId: string; toolName: string; progress: Progress }
  /** A running tool's `ctx.log()` message (decision 120). */
  | { type: 'log'; step: number; toolCallId: string; toolName: string; entry: LogEntry }
  /** What the context step left out of, or cleared in, the request about to be sent (the state keeps it all). */
  | ({ type: 'context'; step: number } & ContextReport)
  /** A guardrail's verdict (decision 195); `toolCallId` for tool guardrails. */
  | {
      type: 'guardrail';
      step: number;
      name: string;
      kind: GuardrailKind;
      tripped: boolean;
      toolCallId?: string;
    }
  | { type: 'step-finish'; step: number; result: StepResult }
  /** The run went on with another agent: `toolCallId` is the model's handoff call. */
  | { type: 'handoff'; step: number; from: string; to: string; toolCallId: string }
  | { type: 'finish'; result: RunResult };
