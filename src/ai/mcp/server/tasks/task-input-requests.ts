/**
 * A waiting task's questions on MCP 2026-07-28 (the Tasks extension, SEP-2663; decision
 * 242): each undecided pending call is one `inputRequests` entry of `tasks/get` — an
 * `elicitation/create` form — under a key unique over the task's life, and `tasks/update`
 * answers them by key. An answer for a key that is not outstanding (never issued,
 * answered already, superseded) is ignored, as the extension says; a malformed
 * `inputResponses` is `-32602`; an answer that does not fit its form is the rejection or
 * recorded error it makes (decisions 117, 205), never asked again.
 */
import {
  type ElicitResult,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  specTypeSchemas,
} from '@modelcontextprotocol/server';
import { describeValue } from '../../../../internal/describe-value.ts';
import type { AnyTask } from '../../../../task/index.ts';
import type { Decision } from '../../../agent/index.ts';
import type { StoredPending } from '../../../session/index.ts';
import { MAX_CALL_INPUT_BYTES } from '../input-rounds.ts';
import { MAX_TASK_ELICITATIONS } from './task-elicitation.ts';
import { decisionFrom, rejectionFrom, taskQuestion } from './task-questions.ts';
import type { McpTaskRecord } from './task-store.ts';

/** One outstanding question: the request the client is to fulfil. */
export interface InputRequest {
  method: 'elicitation/create';
  params: Record<string, unknown>;
}

/** The most answers one `tasks/update` may carry (a task waits on at most this many forms). */
export const MAX_INPUT_RESPONSES = MAX_TASK_ELICITATIONS;

/** A pending call's key: its kind and the hash of its one-time token, new at every suspension. */
function keyOf(pending: StoredPending): string {
  const kind = pending.call.kind === 'approval' ? 'approval' : 'input';
  return `fino.${kind}.${pending.tokenHash.slice(0, 16)}`;
}

/** The task's undecided pending calls, by key. */
function outstanding(record: McpTaskRecord): Map<string, StoredPending> {
  const open = new Map<string, StoredPending>();
  if (record.run.status !== 'suspended') return open;
  for (const pending of record.run.pending) {
    if (pending.decision === undefined) open.set(keyOf(pending), pending);
  }
  return open;
}

/** The `inputRequests` of a task waiting for input: one form per undecided pending call. */
export function inputRequestsOf(
  record: McpTaskRecord,
  tool: AnyTask | undefined,
): Record<string, InputRequest> {
  const requests: Record<string, InputRequest> = {};
  for (const [key, { call }] of outstanding(record)) {
    const { message, requestedSchema, _meta } = taskQuestion(record.taskId, call, tool);
    requests[key] = {
      method: 'elicitation/create',
      params: { mode: 'form', message, requestedSchema, _meta },
    };
  }
  return requests;
}

/** A decision `tasks/update` records on the pending call `toolCallId`. */
export interface InputDecision {
  toolCallId: string;
  decision: Decision;
}

/**
 * The decisions `responses` make on the task's outstanding questions, and the keys
 * ignored because no question waits under them.
 */
export function decisionsFrom(
  record: McpTaskRecord,
  responses: Record<string, unknown>,
): { decisions: InputDecision[]; ignored: string[] } {
  const open = outstanding(record);
  const decisions: InputDecision[] = [];
  const ignored: string[] = [];
  for (const [key, response] of Object.entries(responses)) {
    const pending = open.get(key);
    if (!pending) {
      ignored.push(key);
      continue;
    }
    const answer = elicitResult(response);
    const decision =
      'error' in answer
        ? rejectionFrom(pending.call, answer.error)
        : decisionFrom(pending.call, answer);
    if (decision) decisions.push({ toolCallId: pending.call.toolCallId, decision });
  }
  return { decisions, ignored };
}

/** A response as an elicitation result, or the error it makes: not one, or too large to keep. */
function elicitResult(response: unknown): ElicitResult | { error: Error } {
  const bytes = JSON.stringify(response)?.length ?? 0;
  if (bytes > MAX_CALL_INPUT_BYTES) {
    return {
      error: new Error(`the answer takes ${bytes} bytes, more than ${MAX_CALL_INPUT_BYTES}`),
    };
  }
  const checked = specTypeSchemas.ElicitResult['~standard'].validate(response);
  if (checked instanceof Promise || checked.issues !== undefined) {
    return {
      error: new Error(
        `expected an elicitation result ({ action, content? }), received ${describeValue(response)}`,
      ),
    };
  }
  return checked.value as ElicitResult;
}

/**
 * `tasks/update`'s `inputResponses` (the SDK lifts them off the params into the request
 * context): an object of at most {@link MAX_INPUT_RESPONSES} answers, else `-32602`.
 */
export function inputResponsesParam(responses: unknown): Record<string, unknown> {
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid inputResponses: expected an object of answers by inputRequests key, received ${responses === null ? 'null' : Array.isArray(responses) ? 'an array' : typeof responses}`,
    );
  }
  const count = Object.keys(responses).length;
  if (count > MAX_INPUT_RESPONSES) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid inputResponses: at most ${MAX_INPUT_RESPONSES} answers per tasks/update, received ${count}`,
    );
  }
  return responses as Record<string, unknown>;
}

/** The `tasks/update` acknowledgement: empty, naming in `_meta` the keys it ignored. */
export const updateAck = (ignored: readonly string[]): Result =>
  ignored.length === 0
    ? {}
    : { _meta: { 'fino/ignoredInputResponses': ignored.map((key) => key.slice(0, 100)) } };
