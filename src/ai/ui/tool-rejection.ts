/**
 * One rule, both ways, for a rejected tool call as a UI message shows it
 * (`output-denied`, with the approval's reason) and as the model reads it: the `isError`
 * result `fino:ai/agent` writes for a rejection (`Tool call "<name>" was rejected:
 * <reason>`, src/ai/agent/decisions.ts), so a thread reloaded and posted back reads the
 * same to the model (decision 249).
 */
import { rejectionPrefix as prefix } from '../agent/index.ts';

/** What a rejection says when it gives no reason. */
const NO_REASON = 'no reason given';

/** The text of the `isError` result that answers a rejected call of `toolName`. */
export const rejectionText = (toolName: string, reason: string | undefined) =>
  `${prefix(toolName)}${reason ?? NO_REASON}`;

/** The reason of a rejection result's text, or `undefined` when the text is not one. */
export function rejectionReason(toolName: string, text: string): string | undefined {
  return text.startsWith(prefix(toolName)) ? text.slice(prefix(toolName).length) : undefined;
}
