/**
 * The page's answers on a message the chat streamed: approval responses
 * (`addToolApprovalResponse`) and outputs of suspended calls (`addToolOutput`), checked
 * against what the run waits for — nothing the page sends is trusted — then recorded as
 * the session's decisions, by the actor the handler's `auth` named (decision 256).
 */
import { argsHash } from '../agent/index.ts';
import { SessionError, type SessionPendingCall, type SessionRun } from '../session/index.ts';
import { parseApprovalId } from './approval-id.ts';
import type { ChatContext } from './chat-context.ts';
import {
  pendingToolResponses,
  type UIApprovalResponse,
  type UIToolResponse,
} from './pending-tool-responses.ts';
import type { UIMessage, UIToolPart } from './types.ts';
import { UIRequestError } from './ui-request-error.ts';

/** One decision to record: on which call, and what. */
export type ChatDecision =
  | { kind: 'approve'; toolCallId: string }
  | { kind: 'reject'; toolCallId: string; reason: string }
  | { kind: 'resume'; toolCallId: string; value: unknown };

/** The reason the model reads when the page denies a call without giving one. */
export const DENIED_IN_CHAT = 'The user denied this call in the chat.';

/**
 * Decides what `message` (the chat's newest assistant message, id = its run) answers,
 * and streams the rest of the message while the run goes on.
 */
export async function answerTurn(context: ChatContext, message: UIMessage): Promise<Response> {
  const run = await context.session.get(message.id);
  if (!run || run.threadId !== context.chatId) {
    throw new UIRequestError(
      'INVALID_TOOL_RESPONSE',
      `Expected the last message to be a user message, or the assistant message of a run of chat "${context.chatId}" with answers on its tool calls; received assistant message "${message.id}", which names no run of this chat.`,
    );
  }
  const decisions = chatDecisions(run, message);
  const after = await lastSeq(context, run.runId);
  await recordDecisions(context, run.runId, decisions);
  return context.stream(run.runId, after);
}

/**
 * Records `decisions` on run `runId` and, once one is recorded, continues the run in the
 * background — also when a later one fails, or the run would stay `ready` with no worker.
 * A call another tab decided since the message was checked is skipped, as one decided
 * before is; the 409 is this request's answer only when it recorded none.
 */
async function recordDecisions(
  context: ChatContext,
  runId: string,
  decisions: ChatDecision[],
): Promise<void> {
  const options = { ...context.actor, defer: true };
  let recorded = 0;
  let lostRace: SessionError | undefined;
  try {
    for (const decision of decisions) {
      const call = { runId, toolCallId: decision.toolCallId };
      try {
        if (decision.kind === 'approve') await context.session.approve(call, options);
        else if (decision.kind === 'reject')
          await context.session.reject(call, decision.reason, options);
        else await context.session.resume(call, decision.value, options);
        recorded++;
      } catch (error) {
        if (!isDecidedMeanwhile(error)) throw error;
        lostRace = error;
      }
    }
  } finally {
    if (recorded > 0) context.background(runId, context.session.continue(runId));
  }
  if (lostRace && recorded === 0) throw lostRace;
}

const isDecidedMeanwhile = (error: unknown): error is SessionError =>
  error instanceof SessionError &&
  (error.code === 'ALREADY_DECIDED' || error.code === 'NOT_PENDING');

/**
 * The decisions `message` asks of `run`: each approval response and output that answers
 * a call the run waits for. Refused: an answer on a call it never asked about (forged or
 * foreign ids, an output on a call that awaits approval, changed arguments) with 400;
 * answers that only repeat decided calls (a second tab, a replay — approvals and
 * outputs alike) with 409.
 */
export function chatDecisions(run: SessionRun, message: UIMessage): ChatDecision[] {
  const { approvals, outputs } = pendingToolResponses(message);
  const waiting = waitingCalls(run);
  const decided = new Set((run.audit ?? []).map((entry) => entry.toolCallId));
  const decisions: ChatDecision[] = [];
  for (const approval of approvals) {
    const call = waiting.get(approval.toolCallId);
    checkApprovalId(run.runId, approval);
    if (!call) {
      if (decided.has(approval.toolCallId)) continue;
      throw notAsked(run, approval.toolCallId);
    }
    checkApprovedCall(call, approval, inputOf(message, approval.toolCallId));
    decisions.push(
      approval.approved
        ? { kind: 'approve', toolCallId: call.toolCallId }
        : {
            kind: 'reject',
            toolCallId: call.toolCallId,
            reason: approval.reason ?? DENIED_IN_CHAT,
          },
    );
  }
  for (const output of outputs) {
    const call = waiting.get(output.toolCallId);
    // Every settled output is on the message, the server's own too: only a waiting call's counts.
    if (!call) continue;
    decisions.push(outputDecision(call, output));
  }
  if (decisions.length > 0) return decisions;
  // Only decided calls answered (every approval left is one): a second tab, or a replay.
  if (approvals.length > 0 || outputs.some((output) => decided.has(output.toolCallId))) {
    throw new UIRequestError(
      'ALREADY_DECIDED',
      `Every call this message answers in run "${run.runId}" was already decided (in another tab, or by this same request sent before); the run is ${run.status}. Reload the chat to see the decision.`,
    );
  }
  throw new UIRequestError(
    'INVALID_TOOL_RESPONSE',
    `Expected the assistant message "${run.runId}" to answer a call its run waits for, ${waitingText(waiting)}; it answers none.`,
  );
}

/** The approval id must be the one the stream sent for this call of this run. */
function checkApprovalId(runId: string, approval: UIApprovalResponse): void {
  const named = parseApprovalId(approval.approvalId);
  if (named?.runId === runId && named.toolCallId === approval.toolCallId) return;
  throw new UIRequestError(
    'INVALID_TOOL_RESPONSE',
    `Expected the approval id of call "${approval.toolCallId}" to be the one the chat sent for it, received ${JSON.stringify(approval.approvalId.slice(0, 300))}.`,
  );
}

/** An approval answers an approval request, for exactly the arguments the page was shown. */
function checkApprovedCall(call: SessionPendingCall, approval: UIApprovalResponse, input: unknown) {
  if (call.kind !== 'approval') {
    throw new UIRequestError(
      'INVALID_TOOL_RESPONSE',
      `Call "${call.toolCallId}" (${call.toolName}) is suspended, not awaiting approval: answer it with its output (addToolOutput).`,
    );
  }
  if (approval.toolName !== call.toolName || argsHash(input) !== call.argsHash) {
    throw new UIRequestError(
      'INVALID_TOOL_RESPONSE',
      `Expected the approval of call "${call.toolCallId}" to be for ${call.toolName} with the arguments the chat showed; the message carries ${approval.toolName === call.toolName ? 'other arguments' : `tool ${JSON.stringify(approval.toolName)}`}.`,
    );
  }
}

/** An output answers a suspended call: a value resumes it, an error text rejects it. */
function outputDecision(call: SessionPendingCall, output: UIToolResponse): ChatDecision {
  if (call.kind !== 'suspend' || output.toolName !== call.toolName) {
    throw new UIRequestError(
      'INVALID_TOOL_RESPONSE',
      `Expected an output only on a suspended call; call "${call.toolCallId}" (${call.toolName}) ${call.kind === 'suspend' ? `is not a call of ${JSON.stringify(output.toolName)}` : 'awaits approval (addToolApprovalResponse), not an output'}.`,
    );
  }
  if (output.errorText !== undefined) {
    return {
      kind: 'reject',
      toolCallId: call.toolCallId,
      reason: output.errorText || DENIED_IN_CHAT,
    };
  }
  return { kind: 'resume', toolCallId: call.toolCallId, value: output.output };
}

function notAsked(run: SessionRun, toolCallId: string): UIRequestError {
  return new UIRequestError(
    'INVALID_TOOL_RESPONSE',
    `Expected an approval response on a call run "${run.runId}" asked approval for; it never asked about a call "${toolCallId.slice(0, 300)}". It waits for ${waitingText(waitingCalls(run))}.`,
  );
}

/** The run's undecided pending calls, by call id. */
function waitingCalls(run: SessionRun): Map<string, SessionPendingCall> {
  return new Map(
    (run.status === 'suspended' ? run.pending : []).map((call) => [call.toolCallId, call]),
  );
}

function waitingText(waiting: Map<string, SessionPendingCall>): string {
  if (waiting.size === 0) return 'nothing (it is not suspended)';
  return [...waiting.values()]
    .map((call) => `${call.kind} of ${call.toolName} (${call.toolCallId})`)
    .join(', ');
}

/** The input the message shows for a call: what the page's user approved. */
function inputOf(message: UIMessage, toolCallId: string): unknown {
  const part = message.parts.find(
    (candidate) => 'toolCallId' in candidate && candidate.toolCallId === toolCallId,
  ) as UIToolPart | undefined;
  return part?.input;
}

/** The seq of the run's newest recorded event: the stream of its continuation starts after it. */
async function lastSeq(context: ChatContext, runId: string): Promise<number> {
  let seq = 0;
  for await (const event of context.session.events(runId, { follow: false })) seq = event.seq;
  return seq;
}
