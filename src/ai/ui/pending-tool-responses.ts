/**
 * What the page answered on a message's tool parts (decision 249): its approval
 * responses (`addToolApprovalResponse`) and the outputs it added (`addToolOutput`), for a
 * chat handler to decide pending calls with. `toModelMessages` leaves these calls out.
 */

import type { UIMessage, UIToolPart } from './types.ts';
import { toolNameOf } from './ui-to-model.ts';

/** An approval response the page gave on a tool part (`approval-responded`). */
export interface UIApprovalResponse {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  approved: boolean;
  reason?: string;
}

/** An output on a tool part: `output` for `output-available`, `errorText` for `output-error`. */
export interface UIToolResponse {
  toolCallId: string;
  toolName: string;
  output?: unknown;
  errorText?: string;
}

/**
 * The approval responses and tool outputs on `message`'s tool parts (the newest assistant
 * message a page posts). Every settled output is listed, the ones the server sent too:
 * the handler keeps those that answer a call its run is waiting for, and refuses the
 * rest — neither is trusted because the page sent it.
 *
 * @example
 * ```ts
 * import { pendingToolResponses } from 'fino:ai/ui';
 *
 * const { approvals } = pendingToolResponses({
 *   id: 'run-1',
 *   role: 'assistant',
 *   parts: [
 *     {
 *       type: 'tool-refund',
 *       toolCallId: 'c1',
 *       state: 'approval-responded',
 *       input: { order: 'o-17' },
 *       approval: { id: 'run-1/c1', approved: false, reason: 'not eligible' },
 *     },
 *   ],
 * });
 * console.log(approvals); // [{ approvalId: 'run-1/c1', toolCallId: 'c1', toolName: 'refund', approved: false, reason: 'not eligible' }]
 * ```
 */
export function pendingToolResponses(message: UIMessage): {
  approvals: UIApprovalResponse[];
  outputs: UIToolResponse[];
} {
  const approvals: UIApprovalResponse[] = [];
  const outputs: UIToolResponse[] = [];
  for (const part of message.parts) {
    if (!('toolCallId' in part)) continue;
    const tool = part as UIToolPart;
    const base = { toolCallId: tool.toolCallId, toolName: toolNameOf(tool) };
    if (tool.state === 'approval-responded' && tool.approval?.approved !== undefined) {
      const response: UIApprovalResponse = {
        approvalId: tool.approval.id,
        ...base,
        approved: tool.approval.approved,
      };
      if (tool.approval.reason !== undefined) response.reason = tool.approval.reason;
      approvals.push(response);
    } else if (tool.state === 'output-available') {
      outputs.push({ ...base, output: tool.output });
    } else if (tool.state === 'output-error') {
      outputs.push({ ...base, errorText: tool.errorText ?? '' });
    }
  }
  return { approvals, outputs };
}
