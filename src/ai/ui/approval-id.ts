/**
 * The one rule for the approval id a tool approval request carries in a UI message
 * stream: the run and the tool call it decides, so the answer `useChat` posts back finds
 * both (whichever server process reads it).
 */

/**
 * The approval id of a tool call of a run: both parts URI-encoded, joined by `/`.
 *
 * @example
 * ```ts
 * import { approvalIdOf } from 'fino:ai/ui';
 *
 * approvalIdOf('run_1', 'call/2'); // → 'run_1/call%2F2'
 * ```
 */
export function approvalIdOf(runId: string, toolCallId: string): string {
  return `${encodeURIComponent(runId)}/${encodeURIComponent(toolCallId)}`;
}

/**
 * The run and tool call an approval id names, or `undefined` when `id` is not one
 * {@link approvalIdOf} makes (no single `/`, an empty part, or a bad escape).
 *
 * @example
 * ```ts
 * import { parseApprovalId } from 'fino:ai/ui';
 *
 * parseApprovalId('run_1/call%2F2'); // → { runId: 'run_1', toolCallId: 'call/2' }
 * parseApprovalId('forged'); // → undefined
 * ```
 */
export function parseApprovalId(id: unknown): { runId: string; toolCallId: string } | undefined {
  if (typeof id !== 'string') return undefined;
  const parts = id.split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  try {
    return { runId: decodeURIComponent(parts[0]), toolCallId: decodeURIComponent(parts[1]) };
  } catch {
    return undefined;
  }
}
