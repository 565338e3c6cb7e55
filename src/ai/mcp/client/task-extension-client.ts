/**
 * The SDK client with the client side of the Tasks extension (SEP-2663, decision 213).
 * The SDK 2.4.0 refuses a `tools/call` answer whose `resultType` is `"task"` with a bare
 * `UnsupportedResultType` error that drops the answer. This client delivers that answer
 * as a rejection too — never as a result, so no SDK check is bypassed — but one that
 * carries the created task, which fino's task calls read (`createdTaskOf`).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type JSONRPCErrorResponse,
  type JSONRPCResponse,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/client';
import { TASKS_EXTENSION } from '../protocol/index.ts';
import { LoggingClient } from './log-level.ts';

/** The message of the rejection that carries a created task. */
const CREATED_TASK = 'the server answered with a task (resultType "task", the Tasks extension)';

/** The SDK client that hands a created task of the Tasks extension to its caller. */
export class TaskExtensionClient extends LoggingClient {
  protected override _onresponse(response: JSONRPCResponse | JSONRPCErrorResponse): void {
    const result = (response as { result?: unknown }).result;
    if (!isCreatedTask(result)) {
      super._onresponse(response);
      return;
    }
    super._onresponse({
      jsonrpc: '2.0',
      id: response.id,
      error: {
        code: ProtocolErrorCode.InternalError,
        message: CREATED_TASK,
        data: { resultType: 'task', task: result },
      },
    } as JSONRPCErrorResponse);
  }

  /**
   * The `_meta` that opts one request into the extension: this client's capabilities
   * with `extensions["io.modelcontextprotocol/tasks"]` (2026-era connections only).
   */
  tasksOptIn(): Record<string, unknown> {
    const envelope = this._outboundMetaEnvelope();
    const declared = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? {}) as {
      extensions?: Record<string, unknown>;
    };
    return {
      [CLIENT_CAPABILITIES_META_KEY]: {
        ...declared,
        extensions: { ...declared.extensions, [TASKS_EXTENSION]: {} },
      },
    };
  }
}

/** The created task a request was answered with, or `undefined` for any other error. */
export function createdTaskOf(error: unknown): unknown {
  if (!(error instanceof ProtocolError) || error.message.indexOf(CREATED_TASK) === -1) return;
  const data = error.data as { resultType?: unknown; task?: unknown } | undefined;
  return data?.resultType === 'task' ? data.task : undefined;
}

function isCreatedTask(result: unknown): boolean {
  return (
    typeof result === 'object' &&
    result !== null &&
    (result as { resultType?: unknown }).resultType === 'task'
  );
}
