/**
 * The context a tool executor receives.
 */
import type {
  ElicitAnswer,
  ElicitRequest,
  LogFn,
  ModelMessage,
  Progress,
  SampleRequest,
  SampleResult,
  SuspendRequest,
} from '../../task/index.ts';

/**
 * Runtime context passed to a tool executor.
 *
 * Agents populate every field when they invoke a tool during a run. When the same tool
 * is executed outside an agent loop (for example directly through `Task.run()`), the
 * identifiers fall back to `'task'`/`0` and `messages` is empty, so executors can rely
 * on the fields always being present.
 *
 * @example
 * ```ts
 * import { tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const fetchPage = tool({
 *   name: 'fetch_page',
 *   description: 'Fetch a URL as text.',
 *   parameters: v.object({ url: v.string() }),
 *   execute: async ({ url }, ctx) => {
 *     const res = await fetch(url, { signal: ctx.signal });
 *     return { content: await res.text() };
 *   },
 * });
 * ```
 */
export interface ToolRunContext {
  /**
   * Aborts when the caller cancels or the tool's `timeoutMs` passes; never aborts
   * otherwise. Honour it: nothing stops code that ignores it (see `ToolOptions.timeoutMs`),
   * unless the tool has `isolation: 'worker'`.
   */
  signal: AbortSignal;
  /** The model's id for this call; `'task'` outside an agent. */
  toolCallId: string;
  /** The agent loop's step; `0` outside an agent. */
  step: number;
  /** The run's id; `'task'` outside an agent. */
  runId: string;
  /** The conversation so far; empty outside an agent. */
  messages: ModelMessage[];
  /**
   * Pauses the run for external input, called as `suspend(reason?, payload?)` or
   * `suspend({ reason?, payload? })`: delegates to the harness's `suspend` when it gave
   * one (always positionally), otherwise throws a `SuspendSignal` with `reason` and
   * `payload`. A method signature, so a harness's positional
   * `suspend(reason?: string, payload?: unknown)` still fits.
   */
  suspend(reasonOrRequest?: string | SuspendRequest, payload?: unknown): never;
  /** The human's answer, set by an agent when it re-invokes a suspended call. */
  resumeValue?: unknown;
  /** Stable per tool call across resumes and retries (set by agents and sessions), for deduplicating side effects. */
  idempotencyKey?: string;
  /**
   * Reports how far the call is (`{ progress, total?, message? }`): MCP progress
   * notifications, an agent's `progress` stream event, the CLI's progress bar — whichever
   * the caller listens with; nothing otherwise. A bad update throws a `TypeError`.
   */
  progress(update: Progress): void;
  /**
   * Logs one message at an RFC 5424 level (`'debug'` … `'emergency'`), with optional
   * data: an MCP client's `notifications/message` (honouring its `logging/setLevel`),
   * an agent's `log` stream event, the CLI's standard error; dropped without a listener.
   */
  log: LogFn;
  /** Asks the caller's model (MCP sampling); rejects when the caller has none to offer. */
  sample(request: SampleRequest): Promise<SampleResult>;
  /**
   * Asks a person to fill a flat form (MCP elicitation): resolves `accept` with content
   * checked against the schema, `decline` or `cancel`; rejects when no one can be asked.
   */
  elicit(request: ElicitRequest): Promise<ElicitAnswer>;
}
