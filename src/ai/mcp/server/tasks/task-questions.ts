/**
 * The question a waiting MCP task puts to its client (the approval form of decision 042,
 * or the suspended tool's question) and the decision its answer makes. An answer that
 * does not fit the form is a rejection, as it is outside tasks: the client is asked once,
 * never again in a loop (decision 117).
 */
import { type ElicitResult, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { errorMessage } from '../../../../internal/thrown-value.ts';
import type { AnyTask } from '../../../../task/index.ts';
import type { Decision, PendingCall } from '../../../agent/index.ts';
import { approvalMeta } from '../../protocol/index.ts';
import { ANSWER_KEY, ANSWER_SCHEMA, APPROVAL_SCHEMA, approvalQuestion } from '../call-tool.ts';
import { elicitationDecision, parkedElicitation } from './task-elicitation.ts';
import { relatedTask } from './task-wire.ts';

/** An `elicitation/create` form. */
export interface TaskQuestion {
  message: string;
  requestedSchema: Record<string, unknown>;
  _meta: Record<string, unknown>;
}

/** Asks the client of a `tasks/result` request to fill a form. */
export type Asker = (question: TaskQuestion) => Promise<ElicitResult>;

/** The form asking about `call`, the pending call of task `taskId` (`tool` when still served). */
export function taskQuestion(
  taskId: string,
  call: PendingCall,
  tool: AnyTask | undefined,
): TaskQuestion {
  if (call.kind === 'approval') {
    return {
      message: tool
        ? approvalQuestion(tool, call.args)
        : `Allow "${call.toolName}" with ${JSON.stringify(call.args)}?`,
      requestedSchema: APPROVAL_SCHEMA,
      _meta: { ...approvalMeta(call.toolName, call.args), ...relatedTask(taskId) },
    };
  }
  const parked = parkedElicitation(call);
  if (parked) {
    return {
      message: parked.elicit.message,
      requestedSchema: parked.elicit.schema,
      _meta: relatedTask(taskId),
    };
  }
  return {
    message: call.reason ?? `"${call.toolName}" needs your input to continue.`,
    requestedSchema: ANSWER_SCHEMA,
    _meta: relatedTask(taskId),
  };
}

/** The decision a client's answer to the form about `call` makes. */
export function decisionFrom(call: PendingCall, answer: ElicitResult): Decision {
  const parked = parkedElicitation(call);
  if (parked) return elicitationDecision(parked, { result: answer });
  const accepted = answer.action === 'accept';
  if (call.kind === 'approval') {
    return accepted && answer.content?.approve === true
      ? { approve: true }
      : { reject: 'The user rejected the call.' };
  }
  return accepted
    ? { resume: answer.content?.[ANSWER_KEY] }
    : { reject: 'The user did not answer.' };
}

/** The longest part of a client's error kept in the rejection. */
const MAX_REASON_CHARS = 300;

/** Failures that say nothing about the answer: the client left or did not answer in time. */
const NOT_ANSWERED: ReadonlySet<string> = new Set([
  SdkErrorCode.ConnectionClosed,
  SdkErrorCode.RequestTimeout,
  SdkErrorCode.NotConnected,
  SdkErrorCode.SendFailed,
]);

/**
 * What asking failed with: `undefined` when the client did not answer (ask again later),
 * else the rejection its answer makes — an answer that does not fit the form (the SDK
 * checks it against `requestedSchema`), or an error the client answered with.
 */
export function rejectionFrom(call: PendingCall, thrown: unknown): Decision | undefined {
  if (thrown instanceof SdkError && NOT_ANSWERED.has(thrown.code)) return undefined;
  if ((thrown as { name?: unknown } | undefined)?.name === 'AbortError') return undefined;
  const parked = parkedElicitation(call);
  if (parked) return elicitationDecision(parked, { thrown });
  const what = call.kind === 'approval' ? 'approval' : 'answer';
  return {
    reject: `The client's ${what} did not fit the form: ${errorMessage(thrown).slice(0, MAX_REASON_CHARS)}`,
  };
}
