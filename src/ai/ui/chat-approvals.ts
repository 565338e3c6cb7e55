/**
 * What a reloaded chat shows of its approvals: the thread keeps a call's result, not who
 * approved it, so the approvals come from each run's audit trail — the same
 * `approval` a tool part had on the live page (decision 256).
 */
import type { AuditEntry } from '../session/index.ts';
import { approvalIdOf } from './approval-id.ts';
import { DENIED_IN_CHAT } from './chat-answers.ts';
import type { ChatContext } from './chat-context.ts';
import type { UIMessage, UIToolPart } from './types.ts';

/**
 * `messages` with the approvals their runs' audit trails record: an approved call that
 * ran gets `approval: { id, approved: true }`; a call denied without a reason of the
 * page's own loses the server's default one. Only runs with settled tool calls are read.
 */
export async function withApprovals(
  context: ChatContext,
  messages: UIMessage[],
): Promise<UIMessage[]> {
  return Promise.all(
    messages.map(async (message) => {
      const settled = message.parts.filter(isSettledToolPart);
      if (message.role !== 'assistant' || settled.length === 0) return message;
      const run = await context.session.get(message.id);
      if (!run?.audit || run.audit.length === 0) return message;
      const decisions = new Map(run.audit.map((entry) => [entry.toolCallId, entry]));
      return {
        ...message,
        parts: message.parts.map((part) =>
          isSettledToolPart(part) ? approvalShown(part, message.id, decisions) : part,
        ),
      };
    }),
  );
}

const isSettledToolPart = (part: UIMessage['parts'][number]): part is UIToolPart =>
  'toolCallId' in part && (part.state === 'output-available' || part.state === 'output-denied');

function approvalShown(
  part: UIToolPart,
  runId: string,
  decisions: Map<string | undefined, AuditEntry>,
): UIToolPart {
  const decision = decisions.get(part.toolCallId);
  if (part.state === 'output-available' && decision?.action === 'approve') {
    return { ...part, approval: { id: approvalIdOf(runId, part.toolCallId), approved: true } };
  }
  if (part.state === 'output-denied' && decision?.action === 'reject' && part.approval) {
    if (decision.note !== DENIED_IN_CHAT) return part;
    const { reason: _server, ...approval } = part.approval;
    return { ...part, approval };
  }
  return part;
}
