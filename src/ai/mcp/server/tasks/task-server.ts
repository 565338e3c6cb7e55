/**
 * The SDK `Server` with MCP Tasks wired in: the `tasks/*` handlers, and a `tools/call`
 * that may answer a `CreateTaskResult` (decision 096).
 */

import {
  type CallToolResult,
  type JSONRPCRequest,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isModernRevision } from '../../protocol/index.ts';
import { readableParamsError } from '../invalid-params.ts';
import { onRequestStream, requestCapabilities } from '../server-requests.ts';
import {
  cancelAck,
  detailedTask,
  extensionRequired,
  isFlatCreatedTask,
  optsIntoTasks,
} from './task-extension.ts';
import { inputResponsesParam, updateAck } from './task-input-requests.ts';
import { isCreatedTask, type TaskRunner } from './task-runner.ts';
import { ownerOf, type TaskOwner, TERMINAL, taskIdParam } from './task-wire.ts';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** Carries a created task past the SDK's `CallToolResult` check. */
class TaskCreated {
  constructor(readonly result: Result) {}
}

/**
 * A `Server` whose `tools/call` handler may return a task. The SDK checks every
 * `tools/call` result against `CallToolResult`, which a `CreateTaskResult` is not, so
 * such a result leaves the checked handler as a throw and is answered as it is.
 * Every method's params refused by the SDK's wire schema are answered `-32602` naming
 * the fields (`invalid-params.ts`), not with the schema library's issue dump.
 * `_wrapHandler` is the SDK's documented hook for this kind of subclass.
 */
export class TaskServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const checked = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (method === 'tools/call' && (isCreatedTask(result) || isFlatCreatedTask(result))) {
        throw new TaskCreated(result);
      }
      return result;
    });
    return async (request, ctx) => {
      try {
        return await checked(request, ctx);
      } catch (thrown) {
        if (thrown instanceof TaskCreated) return thrown.result;
        throw readableParamsError(method, thrown);
      }
    };
  }
}

/** The capability a server running MCP tasks declares. */
export const TASKS_CAPABILITY = {
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
};

type TaskMethod = 'tasks/get' | 'tasks/result' | 'tasks/list' | 'tasks/cancel' | 'tasks/update';
type TaskHandler = (
  params: Record<string, unknown> | undefined,
  ctx: ServerContext,
) => Promise<Result>;

/**
 * Params as they come: each handler checks what it reads and answers a bad value with
 * `-32602` naming it. (The SDK's own check of the task methods reports a bad `taskId`
 * as an internal error, `-32603`.)
 */
const ANY_PARAMS = {
  '~standard': {
    version: 1 as const,
    vendor: 'fino',
    validate: (value: unknown) => ({ value: value as Record<string, unknown> | undefined }),
  },
};

/** Registers a `tasks/*` handler (the SDK's typed method map leaves the experimental task methods out). */
function onTaskRequest(server: Server, method: TaskMethod, handler: TaskHandler): void {
  server.setRequestHandler(method, { params: ANY_PARAMS }, (params, ctx) =>
    handler(params as Record<string, unknown> | undefined, ctx as ServerContext),
  );
}

/** Answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` on `server` from `runner`. */
export function serveTasks(
  server: Server,
  runner: TaskRunner,
  canElicit: (ctx: ServerContext) => boolean,
): void {
  const extension = (ctx: ServerContext, method: string): boolean => {
    if (!isModernRevision(server.getNegotiatedProtocolVersion())) return false;
    if (!optsIntoTasks(requestCapabilities(ctx, () => server.getClientCapabilities()))) {
      throw extensionRequired(method);
    }
    return true;
  };
  onTaskRequest(server, 'tasks/get', async (params, ctx) => {
    const taskId = taskIdParam(params);
    if (extension(ctx, 'tasks/get')) return detailedTask(await runner.detail(taskId, ownerOf(ctx)));
    return runner.get(taskId, ownerOf(ctx));
  });
  onTaskRequest(server, 'tasks/list', (params, ctx) => runner.list(params?.cursor, ownerOf(ctx)));
  onTaskRequest(server, 'tasks/cancel', async (params, ctx) => {
    const taskId = taskIdParam(params);
    if (!extension(ctx, 'tasks/cancel')) return runner.cancel(taskId, ownerOf(ctx));
    await cancelUnlessEnded(runner, taskId, ownerOf(ctx));
    return cancelAck();
  });
  onTaskRequest(server, 'tasks/update', async (params, ctx) => {
    if (!extension(ctx, 'tasks/update')) {
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        'tasks/update is a method of the 2026-07-28 Tasks extension; on this revision a task asks through tasks/result',
      );
    }
    const taskId = taskIdParam(params);
    const responses = inputResponsesParam(ctx.mcpReq.inputResponses ?? params?.inputResponses);
    const ignored = await runner.update(taskId, ownerOf(ctx), responses);
    // Entries that are not objects the SDK drops before they reach here: their questions stay open.
    return updateAck([...(ctx.mcpReq.droppedInputResponseKeys ?? []), ...ignored]);
  });
  onTaskRequest(
    server,
    'tasks/result',
    (params, ctx): Promise<CallToolResult> =>
      runner.result(
        taskIdParam(params),
        ownerOf(ctx),
        canElicit(ctx)
          ? (form) =>
              ctx.mcpReq.elicitInput(
                {
                  message: form.message,
                  requestedSchema: form.requestedSchema as never,
                  _meta: form._meta,
                },
                onRequestStream(ctx),
              )
          : undefined,
        ctx.mcpReq.signal,
      ),
  );
}

/**
 * The extension's `tasks/cancel`: cancels a task that has not ended; a task that has
 * (before or while this request ran) is left as it is — the cancel is idempotent.
 */
async function cancelUnlessEnded(runner: TaskRunner, taskId: string, owner: TaskOwner) {
  const ended = async () => TERMINAL.includes((await runner.detail(taskId, owner)).task.status);
  if (await ended()) return;
  try {
    await runner.cancel(taskId, owner);
  } catch (thrown) {
    if (!(await ended())) throw thrown;
  }
}
