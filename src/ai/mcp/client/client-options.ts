/**
 * The options of `mcpClient()` and their checks, each naming the field it refuses.
 */
import type { ElicitRequest, ElicitResult, Transport } from '@modelcontextprotocol/client';
import { describeValue } from '../../../internal/describe-value.ts';
import { checkDuration } from '../../../internal/duration.ts';
import { checkOptionalType, typeError } from '../../../internal/option-type.ts';
import type { SampleHandler, ServerLogMessage } from './client-catalog.ts';
import type { McpOAuth } from './oauth.ts';
import { checkProtocol, type McpProtocolRevision } from './protocol-choice.ts';
import type { McpClientSamplingOptions } from './sampling-requests.ts';
import type { TaskTiming } from './tasks/index.ts';
import type { McpTransportSpec } from './transports.ts';

/** Options of {@link mcpClient}. */
export interface McpClientOptions {
  /**
   * Where the server is: {@link stdioTransport}, {@link httpTransport}, or any SDK client
   * `Transport`. Or give `url` (and `auth`) for a Streamable HTTP endpoint.
   */
  transport?: McpTransportSpec | Transport;
  /** A Streamable HTTP endpoint: short for `transport: httpTransport({ url, auth })`. */
  url?: string | URL;
  /** OAuth 2.1 login for `url`, made with `oauth()` (decision 123). */
  auth?: McpOAuth;
  /**
   * The MCP revision to speak (decision 212). `'auto'` (the default) negotiates: over
   * Streamable HTTP the newest both sides know (2026-07-28, else the 2025 handshake);
   * over stdio the 2025 handshake. A revision pins it, and a server that does not speak
   * it is refused at `connect()`: `'2026-07-28'`, `'2025-11-25'` or `'2025-06-18'`.
   * Checked at construction.
   */
  protocol?: McpProtocolRevision | 'auto';
  /** This client's name and version, as the server sees them (default `fino`). */
  name?: string;
  version?: string;
  /**
   * Mark remote tools that are destructive and not read-only, or that a fino server
   * marks `fino/requiresApproval`, as `requiresApproval` (default `true`). Set `false`
   * when the application confirms calls another way (e.g. in `onElicit`).
   */
  approveDestructive?: boolean;
  /**
   * Deadline of one remote call, in milliseconds (default: the SDK's, 60 s). Checked
   * at construction: a finite number > 0 and ≤ 2^31 − 1.
   */
  timeoutMs?: number;
  /**
   * Answers the server's elicitation requests that are not an approval this client can
   * give itself (a suspended tool's question, any other server's forms). Without it they
   * are declined. A fino server's approval request for a call the caller already
   * approved (a tool that `requiresApproval`, cleared by an agent) is answered "approve"
   * without calling this, so the user is asked once (decision 051).
   */
  onElicit?: (request: ElicitRequest['params']) => Promise<ElicitResult> | ElicitResult;
  /**
   * Answers the server's sampling requests (`sampling/createMessage`), e.g. with a fino
   * `Model`. Given, the client declares the sampling capability; without it servers
   * cannot sample (their `ctx.sample()` fails with a clear error).
   */
  onSample?: SampleHandler;
  /**
   * Limits on the server's sampling requests: `maxTokens` caps what one may ask for
   * (default 4096), and requests that come while none of this client's requests is open
   * are refused unless `allowUnsolicited` (decision 184). Checked at construction.
   */
  sampling?: McpClientSamplingOptions;
  /**
   * Answers the server's `roots/list` requests: the directories (`file://` URIs) this
   * client shares, e.g. `() => [{ uri: 'file:///home/ana/project', name: 'project' }]`.
   * Given, the client declares the roots capability; without it a server's
   * `ctx.listRoots()` fails with a clear error. Decision 208.
   */
  onRoots?: () =>
    | readonly { uri: string; name?: string }[]
    | Promise<readonly { uri: string; name?: string }[]>;
  /** Receives the server's log messages (`notifications/message`); see `setLogLevel()`. */
  onLog?: (message: ServerLogMessage) => void;
  /**
   * Receives what the client skipped and why, e.g. a remote tool whose schema fino cannot
   * use (default: `console.warn` with the message).
   */
  onWarning?: (warning: McpClientWarning) => void;
  /**
   * How remote tools that declare `execution.taskSupport` (`'required'` or `'optional'`)
   * are called when the server supports task calls: as MCP tasks, polled to their end
   * (decision 098). A task waiting for input suspends the local call with a
   * `RemoteTaskInput` payload; resume it with a `RemoteTaskResume`. `false` calls every
   * tool directly, and leaves out tools that require a task (with a warning). Durations
   * are checked at construction.
   */
  tasks?: false | McpClientTaskOptions;
}

/** Options of task calls: {@link McpClientOptions.tasks}. */
export interface McpClientTaskOptions {
  /**
   * How long the server should keep each task and its result (`params.task.ttl`); the
   * server's default when unset.
   */
  ttlMs?: number;
  /** The wait between `tasks/get` polls when the server suggests no `pollInterval` (default 1000). */
  pollIntervalMs?: number;
  /** The longest wait between polls, whatever `pollInterval` the server suggests (default 5000). */
  maxPollIntervalMs?: number;
  /**
   * How long one call — or one resumed call — follows its task (default one hour): then
   * the task is cancelled and the call answers an `isError` result.
   */
  timeoutMs?: number;
}

/** Something the client worked around: `tool-skipped` names a remote tool left out of `tools()`. */
export interface McpClientWarning {
  type: 'tool-skipped';
  /** The remote tool's name. */
  tool: string;
  /** What happened and why, naming the tool. */
  message: string;
  /** The error that made the tool unusable. */
  cause: unknown;
}

/** Throws unless `options` names a server and its callbacks are functions. */
export function checkClientOptions(options: McpClientOptions): void {
  if (options?.transport === undefined && options?.url === undefined) {
    throw new TypeError(
      'mcpClient: transport is required: stdioTransport({ command }), httpTransport({ url }), or url',
    );
  }
  for (const name of ['onElicit', 'onWarning', 'onSample', 'onLog', 'onRoots'] as const) {
    checkOptionalType(options[name], 'function', `mcpClient: ${name}`, typeError);
  }
  checkProtocol(options.protocol);
  checkOptionalType(
    options.approveDestructive,
    'boolean',
    'mcpClient: approveDestructive',
    typeError,
  );
}

/** The task timing from the `tasks` option, or `undefined` for `tasks: false`. */
export function taskTiming(option: McpClientOptions['tasks']): TaskTiming | undefined {
  if (option === false) return undefined;
  if (
    option !== undefined &&
    (option === null || typeof option !== 'object' || Array.isArray(option))
  ) {
    throw new TypeError(
      `mcpClient: tasks: expected false or { ttlMs?, pollIntervalMs?, maxPollIntervalMs?, timeoutMs? }, received ${describeValue(option)}`,
    );
  }
  const ttlMs = checkDuration('mcpClient: tasks.ttlMs', option?.ttlMs);
  const timing: TaskTiming = {
    pollIntervalMs:
      checkDuration('mcpClient: tasks.pollIntervalMs', option?.pollIntervalMs) ?? 1_000,
    maxPollIntervalMs:
      checkDuration('mcpClient: tasks.maxPollIntervalMs', option?.maxPollIntervalMs) ?? 5_000,
    timeoutMs: checkDuration('mcpClient: tasks.timeoutMs', option?.timeoutMs) ?? 3_600_000,
  };
  if (ttlMs !== undefined) timing.ttlMs = ttlMs;
  return timing;
}
