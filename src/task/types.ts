/**
 * The shapes a task is built from and run with: options, the executor's context,
 * output writers, and the options of `run()` and `invoke()`.
 */
import type { SchemaLike } from '../validate/index.ts';
import type { CliSpec } from './cli-spec.ts';
import type {
  ElicitAnswer,
  ElicitRequest,
  ListRootsRequest,
  LogFn,
  Root,
  SampleRequest,
  SampleResult,
} from './client-requests.ts';
import type { JsonSchemaObject, ModelMessage } from './content.ts';
import type { Isolation } from './isolation/index.ts';
import type { Task } from './task.ts';

/** An output format a caller can ask for. */
export type OutputMode = 'text' | 'json';

/** The output formats a task supports. */
export type OutputModes = OutputMode | 'both';

/**
 * The risk levels fino gives a meaning to: `low` (reads, lookups), `medium` (reversible
 * writes), `high` (costly or external effects), `destructive` (deletes or overwrites;
 * MCP's `destructiveHint`).
 */
export type KnownRisk = 'low' | 'medium' | 'high' | 'destructive';

/**
 * How much harm a call can do, for approval policies and MCP annotations: one of the
 * {@link KnownRisk} levels, or any other non-empty label of your own (`'network'`,
 * `'billing'`), which fino carries along without interpreting. Decision 061.
 */
export type Risk = KnownRisk | (string & {});

/**
 * How a task may run when served over MCP: `'task'` only as an MCP Task (the client
 * polls for the result; MCP's `taskSupport: 'required'`), `'task-optional'` either as a
 * task or as an ordinary call. Undefined: ordinary calls only.
 */
export type TaskExecution = 'task' | 'task-optional';

/** Writes a task's text output as it is produced. */
export interface TextWriter {
  readonly mode: 'text';
  writeText(text: string): void;
}

/** Writes a task's JSON output, one value per call. */
export interface JsonWriter {
  readonly mode: 'json';
  writeJson(value: unknown): void;
}

/** Where a task writes its output, discriminated by `mode`. */
export type Writer = TextWriter | JsonWriter;

/** The object form of a suspension: `ctx.suspend({ reason, payload })`. */
export interface SuspendRequest {
  /** Why the run pauses, shown to whoever resumes it (default `'Suspended'`). */
  reason?: string;
  /** What the resuming side needs to present or resolve the suspension. */
  payload?: unknown;
}

/**
 * Asks the surrounding harness to pause the run; it never returns. Called positionally,
 * `suspend(reason?, payload?)`, or with one object, `suspend({ reason?, payload? })`.
 */
export type SuspendFn = (reasonOrRequest?: string | SuspendRequest, payload?: unknown) => never;

/** How far a call is: `ctx.progress({ progress: 3, total: 10, message: 'Copying…' })`. */
export interface Progress {
  /** Work done so far, a finite number ≥ 0; it should grow with each update. */
  progress: number;
  /** Work in all, when known (a finite number > 0). */
  total?: number;
  /** What is happening now, for people (cut to 500 characters). */
  message?: string;
}

/**
 * Identity of one tool call. Agents and sessions set these; outside an agent they
 * fall back to `toolCallId 'task'`, `step 0`, `runId 'task'` and no messages. The
 * `fino:ai/tool` name for the same fields is `ToolRunContext` (decision 072), which
 * extends this interface.
 */
export interface CallContext {
  /**
   * Aborts when the caller cancels or the call's `timeoutMs` passes; never aborts
   * otherwise (a signal that never aborts when the caller gave none). Honour it: nothing
   * stops code that ignores it (see `timeoutMs`), unless the task or tool has
   * `isolation: 'worker'`.
   */
  signal: AbortSignal;
  /** The model's id for this call; `'task'` outside an agent. */
  toolCallId: string;
  /** The agent loop's step, `0` outside an agent. */
  step: number;
  /** The run's id, `'task'` outside an agent. */
  runId: string;
  /** The conversation so far, empty outside an agent. */
  messages: ModelMessage[];
  /**
   * Pauses the run for external input, called as `suspend(reason?, payload?)` or
   * `suspend({ reason?, payload? })`: the caller's `suspend` when it gave one (always
   * called positionally), otherwise a function that throws `SuspendSignal(reason, payload)`.
   * A method signature, so a harness's positional `(reason?: string, payload?) => never`
   * is accepted as the caller's `suspend`.
   */
  suspend(reasonOrRequest?: string | SuspendRequest, payload?: unknown): never;
  /** The human's answer, set by an agent when it re-invokes a suspended call. */
  resumeValue?: unknown;
  /** Stable per tool call across resumes and retries (set by agents and sessions), for deduplicating side effects. */
  idempotencyKey?: string;
  /**
   * Reports how far the call is. In the context an executor receives it checks the update
   * (a `TypeError` for a bad one) and passes it to the caller's `progress`, when it gave
   * one: an MCP client's progress token, an agent's `progress` stream event, the CLI's
   * progress bar. Without a listener it does nothing. Decision 094.
   */
  progress(update: Progress): void;
  /**
   * Logs one message at an RFC 5424 level (`'debug'` … `'emergency'`), with optional
   * data: an MCP client's `notifications/message` (honouring its `logging/setLevel`),
   * an agent's `log` stream event, the CLI's standard error; dropped without a listener.
   * A bad level or message throws a `TypeError`. Decision 120.
   */
  log: LogFn;
  /**
   * Asks the caller's model (MCP `sampling/createMessage`); rejects with a clear error
   * when the caller has none to offer (e.g. an MCP client without the sampling capability).
   */
  sample(request: SampleRequest): Promise<SampleResult>;
  /**
   * Asks a person to fill a form (MCP `elicitation/create`): a message and a flat object
   * schema of primitives. Resolves `{ action: 'accept', content }` (checked against the
   * schema), `{ action: 'decline' }` or `{ action: 'cancel' }`; rejects when the caller
   * has no one to ask.
   */
  elicit(request: ElicitRequest): Promise<ElicitAnswer>;
  /**
   * Asks the caller for its roots (MCP `roots/list`): the directories or files it shares,
   * as `{ uri, name? }`; rejects when the caller has none to offer (an MCP client without
   * the roots capability). Decision 208.
   */
  listRoots(request?: ListRootsRequest): Promise<Root[]>;
}

/**
 * What a task's executor receives: the call's identity, a writer, environment and
 * directory. `TaskRunContext` is to `task({ run })` what `ToolRunContext` is to
 * `tool({ execute })`.
 */
export interface TaskRunContext extends CallContext {
  writer: Writer;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** Options of `Task.run()`: every field is optional. */
export interface TaskRunOptions extends Partial<CallContext> {
  /** The output mode asked for (default `'text'`); must be one the task supports. */
  mode?: OutputMode;
  /** Where output goes; its `mode` must equal the requested mode. Buffers by default. */
  writer?: Writer;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** The context of `Task.invoke()`: an agent passes every field, a plain caller none. */
export type InvokeContext = Partial<CallContext>;

/**
 * A schema whose parsed type is `T`: a `v` builder or any Standard Schema. Used to
 * infer a task's input type from its schema.
 */
export interface TypedSchema<T> {
  readonly '~standard': { readonly types?: { readonly output: T } | undefined };
}

/**
 * What a schema option accepts: a typed schema (whose type must agree with `Input`,
 * and from which `Input` is inferred) or raw JSON Schema.
 */
export type SchemaInput<Input> = TypedSchema<Input> | JsonSchemaObject | boolean;

/** Definition of a task. */
export interface TaskOptions<Input = unknown, Output = unknown> {
  /** Identifier shown to models and on the command line. */
  name: string;
  description?: string;
  /** Schema of the input: a `v` builder, raw JSON Schema or a Standard Schema. */
  inputSchema?: SchemaInput<Input>;
  /** Schema of the output, for callers that want structured results (e.g. MCP). */
  outputSchema?: SchemaLike;
  /** The output formats supported (default `'text'`). */
  outputMode?: OutputModes;
  /** Command-line surface; options are derived from `inputSchema` unless `cli.options` is given. */
  cli?: CliSpec;
  /** Subcommands. */
  children?: readonly AnyTask[];
  /** Declared effects, free-form labels such as `'fs:write'` or `'network'`. */
  effects?: readonly string[];
  /** Whether a human must approve a call before it runs (default `false`). */
  requiresApproval?: boolean;
  /**
   * How much harm a call can do: a {@link KnownRisk} — `'low'`, `'medium'`, `'high'`,
   * `'destructive'` (which fino maps to MCP's `destructiveHint`) — or any other
   * non-empty label of your own.
   */
  risk?: Risk;
  /** Whether it changes anything; leave undefined when unknown. */
  sideEffects?: boolean;
  /**
   * Whether calling again with the same input has no further effect (MCP's
   * `idempotentHint`); leave undefined when unknown.
   */
  idempotent?: boolean;
  /**
   * Whether MCP clients may run it as a durable MCP Task (`'task-optional'`) or must
   * (`'task'`); see `mcpServer()` in `fino:ai/mcp`. Default: ordinary calls only.
   */
  execution?: TaskExecution;
  /**
   * OAuth scopes a caller's access token must carry to call it through an
   * `mcpServer({ auth })` (refused otherwise, naming the missing scopes); listed in the
   * server's `scopes_supported`. No effect elsewhere. Default: none.
   */
  scopes?: readonly string[];
  /**
   * Deadline for one execution, in milliseconds (> 0, ≤ 2^31 − 1, else a `RangeError`).
   * At the deadline the call settles (`run()` rejects with a `TaskTimeoutError`,
   * `invoke()` returns an `isError` result) and `ctx.signal` aborts; code that ignores
   * the signal, or runs synchronously, is not stopped and keeps running in the
   * background — unless `isolation: 'worker'`, which terminates it at the deadline.
   */
  timeoutMs?: number;
  /** When true, `invoke()` rethrows validation and executor errors instead of returning `isError`. */
  throwOnError?: boolean;
  /**
   * `'worker'` (or `{ type: 'worker', module?, resourceLimits? }`) runs the executor in
   * a worker thread, terminated at `timeoutMs` or on abort: hard cancellation. The task
   * must be constructed at the top level of an ES module, which the worker imports
   * (never call it at that module's top level); input and output cross by structured
   * clone. Workers are capped (`configureIsolation`) and ended past
   * `maxExternalMemoryMb`. Decisions 082 and 132, docs/tool.md "Hard cancellation".
   */
  isolation?: Isolation;
  /** The executor. */
  run(input: Input, ctx: TaskRunContext): Output | Promise<Output>;
}

/** A task of any input and output, for collections of tasks. */
export type AnyTask = Task<any, any>;
