/**
 * `mcpClient()`: uses any MCP server's tools as fino tools, through the official SDK client.
 */

import { randomUUID } from 'node:crypto';
import {
  Client,
  type ElicitRequest,
  type ElicitResult,
  type Tool as McpTool,
  type Transport,
} from '@modelcontextprotocol/client';
import { describeValue } from '../../../internal/describe-value.ts';
import { checkDuration } from '../../../internal/duration.ts';
import type { Tool } from '../../tool/index.ts';
import { approvalSubject } from '../protocol/index.ts';
import { ApprovedCalls } from './approved-calls.ts';
import {
  catalogClient,
  type McpCatalogClient,
  type SampleHandler,
  type ServerLogMessage,
  withDefaults,
} from './client-catalog.ts';
import { connectionError, transportTarget } from './connection-error.ts';
import { diffFingerprints, fingerprint, type ToolsDiff } from './fingerprint.ts';
import type { McpOAuth } from './oauth.ts';
import { type RemoteCallRequest, remoteTool } from './remote-tool.ts';
import { finoJsonSchemaValidator, refusedOutputMessage } from './sdk-validator.ts';
import {
  readServerProgress,
  runRemoteTask,
  TaskInputs,
  type TaskRequests,
  type TaskTiming,
} from './tasks/index.ts';
import { httpTransport, type McpTransportSpec, openTransport } from './transports.ts';

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

/** Called when a listing differs from the one before it. */
export type ToolsChangedListener = (diff: ToolsDiff) => void;

/** The object {@link mcpClient} returns. */
export interface McpToolClient extends McpCatalogClient {
  /** Connects and performs the MCP handshake; `tools()` connects on first use too. */
  connect(): Promise<void>;
  /**
   * The server's tools as fino `Tool`s, validated locally before each call. A tool whose
   * definition fino cannot use (an invalid schema, an unresolvable `$ref`) is left out,
   * and `onWarning` says which and why; the others stay usable.
   */
  tools(): Promise<Tool[]>;
  /** Each tool's definition fingerprint from the latest listing (SHA-256, hex). */
  fingerprints(): ReadonlyMap<string, string>;
  /**
   * Reports listings that differ from the previous one — from `tools()` and from the
   * server's `notifications/tools/list_changed` — and returns an unsubscribe function.
   */
  onToolsChanged(listener: ToolsChangedListener): () => void;
  /** Ends the connection (and the server process, for stdio). */
  close(): Promise<void>;
}

/**
 * Adapts a remote MCP server's tools into fino `Tool`s.
 *
 * Each tool's parameters are the server's raw JSON Schema, validated locally with
 * `fino:validate` before anything is sent; annotations map back (`destructiveHint` →
 * `risk: 'destructive'`, `readOnlyHint` → `sideEffects`, `idempotentHint` → `idempotent`);
 * results map back to content parts with `isError` kept and `structuredContent` checked
 * against the tool's `outputSchema`; aborting the call's signal cancels the remote call.
 * When the server announces a changed tool list, a `Tool` whose definition changed or
 * vanished returns an `isError` result instead of calling it. A tool that declares
 * `execution.taskSupport` runs as an MCP task, polled to its end; a task waiting for
 * input suspends the call (see {@link McpClientOptions.tasks}, decision 098).
 *
 * @example
 * ```ts
 * import { httpTransport, mcpClient } from 'fino:ai/mcp';
 *
 * const client = mcpClient({ transport: httpTransport({ url: 'http://127.0.0.1:3000/mcp' }) });
 * const tools = await client.tools();
 * client.onToolsChanged((diff) => console.warn('re-approve:', diff.changed));
 * const result = await tools[0].invoke({ path: '.' });
 * await client.close();
 * ```
 */
export function mcpClient(options: McpClientOptions): McpToolClient {
  if (options?.transport === undefined && options?.url === undefined) {
    throw new TypeError(
      'mcpClient: transport is required: stdioTransport({ command }), httpTransport({ url }), or url',
    );
  }
  for (const name of ['onElicit', 'onWarning', 'onSample', 'onLog'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(
        `mcpClient: ${name}: expected a function, received ${describeValue(options[name])}`,
      );
    }
  }
  if (options.approveDestructive !== undefined && typeof options.approveDestructive !== 'boolean') {
    throw new TypeError(
      `mcpClient: approveDestructive: expected a boolean, received ${describeValue(options.approveDestructive)}`,
    );
  }
  const spec =
    options.transport ??
    httpTransport({
      url: options.url as string | URL,
      ...(options.auth ? { auth: options.auth } : {}),
    });
  const timeout = checkDuration('mcpClient: timeoutMs', options.timeoutMs);
  const timing = taskTiming(options.tasks);
  const warn = options.onWarning ?? ((warning: McpClientWarning) => console.warn(warning.message));
  const sdk = new Client(
    { name: options.name ?? 'fino', version: options.version ?? '0' },
    {
      // Always declared: a fino server asks approval for calls this client already approved.
      capabilities: {
        elicitation: { form: {} },
        ...(options.onSample ? { sampling: {} } : {}),
      },
      // HTTP negotiates the newest protocol and falls back; stdio speaks the 2025
      // handshake every server knows, without the probe's extra process (decision 044).
      // Remote structured output is checked by fino's validator, worded field by field.
      jsonSchemaValidator: finoJsonSchemaValidator,
      versionNegotiation: 'kind' in spec && spec.kind === 'stdio' ? undefined : { mode: 'auto' },
      // The server's list_changed notifications (or, on a 2026 connection, the SDK's
      // subscription) refresh the fingerprints, so stale Tool objects stop calling.
      listChanged: {
        tools: {
          autoRefresh: true,
          debounceMs: 0,
          onChanged: (error, tools) => {
            if (error === null && tools !== null) record(tools);
          },
        },
      },
    },
  );
  const approved = new ApprovedCalls();
  const onElicit = options.onElicit;
  const inputs = new TaskInputs();
  sdk.setRequestHandler('elicitation/create', async (request, ctx): Promise<ElicitResult> => {
    const subject = approvalSubject(request.params);
    if (subject !== undefined && approved.has(subject.tool, subject.arguments)) {
      return { action: 'accept', content: { approve: true } };
    }
    // A followed remote task's question goes to its call, which suspends with it.
    const forTask = inputs.receive(request.params, ctx.mcpReq.signal);
    if (forTask) return forTask;
    return onElicit
      ? withDefaults(request.params, await onElicit(request.params))
      : { action: 'decline' };
  });
  const onSample = options.onSample;
  if (onSample) {
    sdk.setRequestHandler(
      'sampling/createMessage',
      async (request) => onSample(request.params) as never,
    );
  }
  const onLog = options.onLog;
  sdk.setNotificationHandler('notifications/message', (notification) => {
    try {
      onLog?.(notification.params);
    } catch {
      // A listener's failure is not the connection's.
    }
  });
  sdk.setNotificationHandler('notifications/resources/updated', (notification) => {
    catalog.resourceUpdated(notification.params.uri);
  });
  // Every call sends its own progress token (a task's stays valid for the task's
  // lifetime); this client sends no other, so every progress notification is routed here.
  const progressListeners = new Map<string, (params: unknown) => void>();
  sdk.setNotificationHandler('notifications/progress', (notification) => {
    progressListeners.get(String(notification.params.progressToken))?.(notification.params);
  });
  const requestOptions = (signal: AbortSignal) =>
    timeout === undefined ? { signal } : { signal, timeout };
  const taskRequests: TaskRequests = {
    create: (params, signal) =>
      sdk.request({ method: 'tools/call', params } as never, ANY_RESULT, requestOptions(signal)),
    get: (taskId, signal) =>
      sdk.request(
        { method: 'tasks/get', params: { taskId } } as never,
        ANY_RESULT,
        requestOptions(signal),
      ),
    result: (taskId, signal) =>
      sdk.request(
        { method: 'tasks/result', params: { taskId } } as never,
        ANY_RESULT,
        requestOptions(signal),
      ),
    listenProgress: (token, listener) => {
      progressListeners.set(token, listener);
      return () => progressListeners.delete(token);
    },
    cancel: (taskId) =>
      sdk.request({ method: 'tasks/cancel', params: { taskId } } as never, ANY_RESULT, {
        timeout: timeout ?? CANCEL_TIMEOUT_MS,
      }),
  };
  /** A plain `tools/call`; the server's progress for it reaches `ctx.progress()`. */
  const callDirectly = async (
    params: { name: string; arguments: Record<string, unknown> },
    ctx: Parameters<typeof runRemoteTask>[1],
  ) => {
    const progressToken = `fino-call:${randomUUID()}`;
    const stopListening = taskRequests.listenProgress(progressToken, (notification) => {
      const update = readServerProgress(notification);
      try {
        if (update !== undefined) ctx.progress(update);
      } catch {
        // A listener's failure is not the call's.
      }
    });
    try {
      return await sdk.callTool(
        { ...params, _meta: { progressToken } },
        { signal: ctx.signal, timeout },
      );
    } finally {
      stopListening();
    }
  };
  /** Whether this server takes task calls for tools (`capabilities.tasks.requests.tools.call`). */
  const serverTakesTasks = () => {
    const tasks = sdk.getServerCapabilities()?.tasks as
      | { requests?: { tools?: { call?: unknown } } }
      | undefined;
    return timing !== undefined && typeof tasks?.requests?.tools?.call === 'object';
  };
  const call = async (
    { taskSupport, ...params }: RemoteCallRequest,
    ctx: Parameters<typeof runRemoteTask>[1],
    isApproved: boolean,
  ) => {
    const end = isApproved ? approved.begin(params.name, params.arguments) : undefined;
    try {
      if (
        timing !== undefined &&
        (taskSupport === 'required' || taskSupport === 'optional') &&
        serverTakesTasks()
      ) {
        return await runRemoteTask(params, ctx, taskRequests, inputs, timing);
      }
      return await callDirectly(params, ctx);
    } catch (error) {
      const refused = refusedOutputMessage(params.name, error);
      if (refused === undefined) throw error;
      return { content: [{ type: 'text' as const, text: refused }], isError: true };
    } finally {
      end?.();
    }
  };
  const approveDestructive = options.approveDestructive ?? true;

  let connecting: Promise<void> | undefined;
  let known: Map<string, string> | undefined;
  const listeners = new Set<ToolsChangedListener>();

  /** Takes a listing as the server's current tools; reports how it differs from the last. */
  function record(tools: McpTool[]): Map<string, string> {
    const latest = new Map(tools.map((t: McpTool) => [t.name, fingerprint(t)]));
    const diff = known && diffFingerprints(known, latest);
    known = latest;
    if (diff) for (const listener of listeners) listener(diff);
    return latest;
  }

  const connect = () => {
    connecting ??= sdk.connect(openTransport(spec)).catch((error: unknown) => {
      connecting = undefined; // a later call may try again
      throw connectionError(transportTarget(spec), error);
    });
    return connecting;
  };

  const catalog = catalogClient(sdk, connect);
  const { resourceUpdated: _resourceUpdated, ...catalogCalls } = catalog;

  return {
    ...catalogCalls,
    connect,
    async tools() {
      await connect();
      const { tools } = await sdk.listTools().catch((cause: unknown) => {
        throw new Error(
          `mcpClient: could not list the server's tools: ${(cause as Error)?.message ?? String(cause)}`,
          { cause },
        );
      });
      const latest = record(tools);
      const usable: Tool[] = [];
      for (const definition of tools) {
        if (definition.execution?.taskSupport === 'required' && !serverTakesTasks()) {
          const why =
            timing === undefined
              ? 'it must run as a task, and this client calls no tasks (tasks: false)'
              : 'it must run as a task, and the server does not declare task calls for tools (capabilities.tasks.requests.tools.call)';
          warn({
            type: 'tool-skipped',
            tool: definition.name,
            message: `mcpClient: skipped remote tool ${JSON.stringify(definition.name)}: ${why}`,
            cause: undefined,
          });
          continue;
        }
        try {
          usable.push(
            remoteTool(definition, {
              call,
              approveDestructive,
              fingerprint: latest.get(definition.name) ?? '',
              currentFingerprint: (name) => known?.get(name),
            }),
          );
        } catch (cause) {
          warn({
            type: 'tool-skipped',
            tool: definition.name,
            message: `mcpClient: skipped remote tool ${JSON.stringify(definition.name)}: its definition is unusable: ${(cause as Error)?.message ?? String(cause)}`,
            cause,
          });
        }
      }
      return usable;
    },
    fingerprints: () => new Map(known),
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      inputs.clear();
      await sdk.close();
    },
  };
}

/** Accepts any result: task answers are checked field by field by `runRemoteTask`. */
const ANY_RESULT = {
  '~standard': { version: 1, vendor: 'fino', validate: (value: unknown) => ({ value }) },
} as const;

/** How long `tasks/cancel` may take when the client has no `timeoutMs`. */
const CANCEL_TIMEOUT_MS = 10_000;

/** The task timing from the `tasks` option, or `undefined` for `tasks: false`. */
function taskTiming(option: McpClientOptions['tasks']): TaskTiming | undefined {
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
