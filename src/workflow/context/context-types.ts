/**
 * The public face of a workflow's context: what `run(ctx, input)` may call, and the
 * shapes those calls take and return. The replay engine behind it is `context.ts`.
 */
import type {
  AgentInput,
  AgentRunOptions,
  Decisions,
  PendingCall,
  RunResult,
  RunState,
} from '../../ai/agent/index.ts';
import type { ToolResultObject } from '../../task/index.ts';
import type { ChildCancelPolicy } from '../types.ts';
import type { Workflow } from '../workflow.ts';
import type { RetryPolicy } from './retry.ts';

/** What a step's function receives. */
export interface StepContext {
  /** The attempt, from 1. */
  attempt: number;
  /** Aborted when the run is cancelled or its worker shuts down. */
  signal: AbortSignal;
  /** `<runId>:<stepId>`: the same in every attempt and after a crash; pass it to external systems. */
  idempotencyKey: string;
}

/** Options of `ctx.step`. */
export interface StepOptions {
  retry?: RetryPolicy;
}

/** Options of `ctx.waitForSignal`. */
export interface WaitForSignalOptions {
  /** Give up after this many ms: the wait then returns `undefined`. */
  timeoutMs?: number;
  /** The wait's id in the history (default: the signal's name, then `name#2`, … for later waits). */
  id?: string;
}

/**
 * What a workflow's `run(ctx, input)` receives. Every method is checkpointed: on replay
 * it returns the saved result without running again.
 */
export interface WorkflowContext {
  readonly runId: string;
  readonly workflowId: string;
  /** Aborted when the run is cancelled or its worker shuts down. */
  readonly signal: AbortSignal;
  /**
   * Runs `fn` once and saves its result (which must be JSON); on replay returns the saved
   * result, or throws the saved failure (`STEP_FAILED`). `retry` retries a throwing `fn`
   * with exponential backoff; a {@link NonRetryableError} stops the retries.
   */
  step<T>(id: string, fn: (step: StepContext) => T | Promise<T>, options?: StepOptions): Promise<T>;
  /** Waits `ms` milliseconds, durably: the deadline is saved, and a worker fires it after any restart. */
  sleep(id: string, ms: number): Promise<void>;
  /** Waits until `at`, durably. */
  sleepUntil(id: string, at: Date | number): Promise<void>;
  /**
   * Waits for the signal `name` (queued signals are consumed oldest first, each once)
   * and returns its payload; with `timeoutMs`, `undefined` once that has passed.
   */
  waitForSignal<T = unknown>(
    name: string,
    options: WaitForSignalOptions & { timeoutMs: number },
  ): Promise<T | undefined>;
  waitForSignal<T = unknown>(name: string, options?: WaitForSignalOptions): Promise<T>;
  /** The current time, saved: a replay sees the same moment. */
  now(): Promise<Date>;
  /** A random number in [0, 1), saved. */
  random(): Promise<number>;
  /** A random UUID, saved. */
  uuid(): Promise<string>;
  /**
   * Which version of the code path `changeId` this run follows: `max` for a run that
   * reaches this point for the first time, `min` for a run whose history was written
   * before the change. Saved, so the run keeps its version. Branch on it to change code
   * under running workflows safely.
   */
  version(changeId: string, range: { min: number; max: number }): Promise<number>;
  /**
   * Calls a fino `Tool` or `Task` once, with the tool_result contract (`{ content, isError? }`,
   * never a throw for a failing tool) and the idempotency key `<runId>:<call id>`, stable
   * across retries and crashes. A tool with `requiresApproval` first parks the run on a
   * pending approval; a tool that suspends (`ctx.suspend()`) parks it on a pending
   * answer, which reaches the tool as `ctx.resumeValue` when it is invoked again. A
   * rejection is the call's result (`isError: true`).
   */
  call(tool: Callable, args: unknown, options?: CallOptions): Promise<ToolResultObject>;
  /**
   * Runs an agent as a durable child: each model turn and tool result is checkpointed in
   * the run's history, so a crash never repeats a completed model call or tool; the
   * agent's approvals and suspensions are the run's pending decisions.
   */
  agent(agent: DurableAgent, prompt: AgentInput, options?: { id?: string }): Promise<AgentOutcome>;
  /**
   * Starts a run of another workflow as a durable child (run id `<runId>/<child id>`, once,
   * however often this code replays) and waits for its output; its failure is thrown
   * here as `STEP_FAILED`, its cancellation as `CHILD_CANCELLED`. When this run is
   * cancelled, `onParentCancel` says what happens to the child (default `cancel`). A
   * worker must know the child's workflow too.
   */
  child<Input, Output>(
    workflow: Workflow<Input, Output>,
    input: Input,
    options?: ChildOptions,
  ): Promise<Output>;
  /**
   * Emits an event a caller can read while the run goes on (`events(runId)`), once:
   * saved, so a replay does not emit it again.
   */
  emit(name: string, value?: unknown): Promise<void>;
  /**
   * Appends `value` (any JSON value; a string is a text chunk) to the run's stream `name`,
   * once however often the code replays; callers follow it live with `readStream`. A
   * stream holds at most 10 000 chunks and 8 MiB of JSON, a run at most 100 streams
   * (`STREAM_FULL`); a chunk at most `maxValueBytes` (`TOO_LARGE`).
   */
  writeStream(name: string, value: unknown): Promise<void>;
  /** Closes the run's stream `name`: its readers end after its last chunk; later writes throw `STREAM_CLOSED`. */
  closeStream(name: string): Promise<void>;
  /**
   * Ends this run and starts its successor with `input` (JSON, at most `maxValueBytes`;
   * checked against the workflow's input schema), in one transaction: the same workflow,
   * a new run id and an empty history, linked as `continuedFrom`/`continuedTo`. Signals
   * not yet consumed move to the successor, and signals and cancels sent to any run of
   * the chain reach the live one. Never returns: it throws to unwind the code, and the
   * run continues as new however the code then ends. See docs/workflow.md.
   */
  continueAsNew(input?: unknown): Promise<never>;
  /**
   * Answers the query `name` (`wf.query`) from the run's state, without changing the run:
   * `handler` is synchronous, and a `ctx` call inside it fails the query (`QUERY_FAILED`).
   * Queries are answered while the run waits. Register again to replace.
   */
  onQuery<Args = unknown, Result = unknown>(name: string, handler: (args: Args) => Result): void;
  /**
   * Applies the update `name` (`wf.update`): `validate` may refuse it first (by throwing:
   * `UPDATE_REJECTED`, nothing recorded); `handler` changes the run's state synchronously
   * and returns the caller's result. Applied once per update id while the run waits,
   * recorded in the history, and applied again at the same wait on every replay.
   */
  onUpdate<Args = unknown, Result = unknown>(
    name: string,
    handler: (args: Args) => Result,
    options?: UpdateHandlerOptions<Args>,
  ): void;
}

/** Options of `ctx.child`. */
export interface ChildOptions {
  /** The child's id in this run (default `$child:<workflow id>`, numbered by occurrence). */
  id?: string;
  /**
   * When this run is cancelled (decision 232): `cancel` the child and wait until it has
   * ended, its `finally` blocks run (the default); `abandon` it (it runs on, this run does
   * not wait); or `wait` until it ends on its own. Then `CANCELLED` is thrown here.
   */
  onParentCancel?: ChildCancelPolicy;
}

/** Options of `ctx.onUpdate`. */
export interface UpdateHandlerOptions<Args = unknown> {
  /** Throws to refuse an update before it is recorded (`UPDATE_REJECTED` with its message). */
  validate?: (args: Args) => void;
}

/** What `ctx.call` calls: a fino `Tool` or `Task` (anything with `name` and the `invoke()` contract). */
export interface Callable {
  readonly name: string;
  readonly requiresApproval?: boolean;
  readonly risk?: string;
  readonly sideEffects?: boolean;
  invoke(
    args: unknown,
    ctx?: {
      signal?: AbortSignal;
      toolCallId?: string;
      runId?: string;
      idempotencyKey?: string;
      resumeValue?: unknown;
    },
  ): Promise<ToolResultObject>;
}

/** Options of `ctx.call`. */
export interface CallOptions {
  /** The call's id in the history (default `$call:<tool name>`, then `#2`, … for later calls). */
  id?: string;
  /** Retries of a call that throws or returns `isError`, with backoff; the last result is returned. */
  retry?: RetryPolicy;
}

/** What `ctx.agent` drives: an agent of `fino:ai/agent` (its `generate` and `resume`). */
export interface DurableAgent {
  generate(input: AgentInput, options?: AgentRunOptions): Promise<RunResult>;
  resume(state: RunState, decisions?: Decisions, options?: AgentRunOptions): Promise<RunResult>;
}

/** What `ctx.agent` returns: the agent's final text, and its structured output when it has an output schema. */
export interface AgentOutcome {
  text: string;
  output?: unknown;
  /** The agent that finished the run, when a handoff made it another than the one given. */
  agent?: string;
}

/**
 * A pending decision as the worker hands it out, once, with its single-use token: the
 * pending call's fields at the top (`toolName`, `args`, `argsHash`, `kind`, `risk`, …),
 * as a session's pending call has them, so one approver serves both (decision 159).
 */
export interface PendingDecision extends PendingCall {
  runId: string;
  workflowId: string;
  /** Names the decision with the run id (`{ runId, decisionId }`) when the token is not at hand. */
  decisionId: string;
  /**
   * The pending call again, as it was handed out before decision 159.
   *
   * @deprecated Read the top-level fields; `call` goes in the next minor release.
   */
  call: PendingCall;
  /** The right to decide it once. Only its hash is stored: send it on from here. */
  token: string;
}
