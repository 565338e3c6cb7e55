/**
 * The SDK `Server` with MCP Tasks wired in: the `tasks/*` handlers, and a `tools/call`
 * that may answer a `CreateTaskResult` (decision 096).
 */
import {
  type CallToolResult,
  type JSONRPCRequest,
  type Result,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { readableParamsError } from '../invalid-params.ts';
import { onRequestStream } from '../server-requests.ts';
import { isCreatedTask, type TaskRunner } from './task-runner.ts';
import { ownerOf, taskIdParam } from './task-wire.ts';

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
      if (method === 'tools/call' && isCreatedTask(result)) throw new TaskCreated(result);
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

type TaskMethod = 'tasks/get' | 'tasks/result' | 'tasks/list' | 'tasks/cancel';
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
  onTaskRequest(server, 'tasks/get', (params, ctx) =>
    runner.get(taskIdParam(params), ownerOf(ctx)),
  );
  onTaskRequest(server, 'tasks/list', (params, ctx) => runner.list(params?.cursor, ownerOf(ctx)));
  onTaskRequest(server, 'tasks/cancel', (params, ctx) =>
    runner.cancel(taskIdParam(params), ownerOf(ctx)),
  );
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
