/**
 * Where an `mcpServer()` answers `tools/list` and `tools/call`: the tool is looked up,
 * the bearer token's scopes checked, and the call run directly (`callTool()`) or, when
 * the client asks for a task on a 2025-era connection, handed to the task runner.
 */

import {
  type CallToolRequestParams,
  type CallToolResult,
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isModernRevision } from '../protocol/index.ts';
import type { CallStateCodec } from './call-state.ts';
import { type ApprovalMode, callTool } from './call-tool.ts';
import { missingScopes, type ServerAuth } from './http/index.ts';
import { progressNotifier } from './progress-notifier.ts';
import type { ServedTool, ServedTools } from './served-tools.ts';
import { requestCapabilities } from './server-requests.ts';
import {
  createdTaskResult,
  extensionRequired,
  optsIntoTasks,
  ownerOf,
  type TaskRunner,
  type TaskServer,
} from './tasks/index.ts';

/** What answering tool requests needs of the server, the same for all its connections. */
export interface ToolHandlerSetting {
  served: ServedTools;
  approval: ApprovalMode;
  callState: CallStateCodec;
  runner: TaskRunner;
  /** The checked `auth` option, when the server has one. */
  bearer: ServerAuth | undefined;
}

/** Answers `tools/list` and `tools/call` on `server`; `withTasks`: it declared the tasks capability. */
export function answerTools(
  server: TaskServer,
  setting: ToolHandlerSetting,
  withTasks: boolean,
): void {
  server.setRequestHandler('tools/list', () => ({ tools: setting.served.listing }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const entry = servedFor(setting, name, ctx);
    // MCP Tasks are core on 2025-11-25 and the Tasks extension on 2026-07-28 (decision 214).
    if (withTasks && isModernRevision(server.getNegotiatedProtocolVersion())) {
      const created = await createExtensionTask(server, setting, entry, request.params, ctx);
      if (created !== undefined) return created;
    } else if (withTasks) {
      const created = await createTaskIfAsked(server, setting, entry, request.params, ctx);
      if (created !== undefined) return created;
    }
    const result = await callTool(entry.tool, args ?? {}, ctx, {
      approval: setting.approval,
      callState: setting.callState,
      connectionCapabilities: () => server.getClientCapabilities(),
      outputValidator: entry.outputValidator,
      inputRequired: isModernRevision(server.getNegotiatedProtocolVersion()),
    });
    if (isInputRequiredResult(result)) return result;
    return server.projectCallToolResult(result, entry.definition.outputSchema);
  });
}

/** The tool named `name`, when it is served and the bearer token carries its scopes. */
function servedFor(setting: ToolHandlerSetting, name: string, ctx: ServerContext): ServedTool {
  const entry = setting.served.get(name);
  if (entry === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Unknown tool "${name}". Available tools: ${setting.served.names().join(', ')}.`,
    );
  }
  const missing = missingScopes(setting.bearer, entry.tool.scopes, ctx.http?.authInfo);
  if (missing.length > 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Tool "${name}" needs the scope(s) ${missing.join(', ')}, which this access token does not carry; log in again asking for them.`,
    );
  }
  return entry;
}

/**
 * The task created for a call that asks for one (`params.task`); `undefined` for a call
 * to answer directly. Refuses a task for a tool that forbids one, and a direct call to a
 * tool that runs only as a task.
 */
async function createTaskIfAsked(
  server: TaskServer,
  setting: ToolHandlerSetting,
  entry: ServedTool,
  params: CallToolRequestParams,
  ctx: ServerContext,
): Promise<CallToolResult | undefined> {
  const { name } = params;
  const taskParam = (params as { task?: unknown }).task;
  if (taskParam !== undefined) {
    if (entry.tool.execution === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `Tool "${name}" does not run as a task (its execution.taskSupport is "forbidden"); call it without params.task.`,
      );
    }
    // A CreateTaskResult, which TaskServer answers as it is (the SDK types expect a CallToolResult).
    const created = await setting.runner.create(
      entry,
      params.arguments ?? {},
      taskParam,
      ownerOf(ctx),
      {
        status: (task) => {
          server
            .notification({ method: 'notifications/tasks/status', params: task })
            .catch(() => undefined); // the client left: it can still poll
        },
        // The task outlives this request: its progress goes out on the connection.
        progress: progressNotifier(ctx, (n) => server.notification(n)),
      },
    );
    return created as unknown as CallToolResult;
  }
  if (entry.tool.execution === 'task') {
    throw new ProtocolError(
      ProtocolErrorCode.MethodNotFound,
      `Tool "${name}" runs only as a task (its execution.taskSupport is "required"): call it with params.task, e.g. { "task": { "ttl": 60000 } }.`,
    );
  }
  return undefined;
}

/**
 * The extension's task for a call to a tool that runs as one, when the request opts into
 * the Tasks extension: the server decides, the client sends no `params.task`. Without
 * the opt-in a `'task-optional'` tool is answered directly (decision 098), and a
 * `'task'` tool is `-32021` naming the extension (decision 244).
 */
async function createExtensionTask(
  server: TaskServer,
  setting: ToolHandlerSetting,
  entry: ServedTool,
  params: CallToolRequestParams,
  ctx: ServerContext,
): Promise<CallToolResult | undefined> {
  if (entry.tool.execution === undefined) return undefined;
  if (!optsIntoTasks(requestCapabilities(ctx, () => server.getClientCapabilities()))) {
    if (entry.tool.execution === 'task')
      throw extensionRequired(`Tool "${params.name}" runs only as a task: it`);
    return undefined;
  }
  const created = await setting.runner.create(entry, params.arguments ?? {}, {}, ownerOf(ctx), {
    status: () => undefined, // the extension has no status notifications: the client polls
    progress: progressNotifier(ctx, (n) => server.notification(n)),
  });
  // A flat CreateTaskResult, which TaskServer answers as it is.
  return createdTaskResult(created) as unknown as CallToolResult;
}
