/**
 * `fino:ai/ui`: fino agents, sessions and workflows behind the chat front ends people
 * already use. It speaks the AI SDK's UI message stream protocol (server-sent events of
 * `UIMessageChunk`s, as `ai` 7 defines it), so `useChat` from `@ai-sdk/react`, or `ai`'s
 * `Chat` and `DefaultChatTransport`, talk to fino unchanged.
 *
 * Its files, one concept each: `types.ts` (the protocol's chunks and messages in fino's
 * types, and fino's data parts); `tool-output.ts` (a tool result as a tool part's
 * `output`, and back); messages in: `ui-request-error.ts`, `chat-request-limits.ts`,
 * `read-chat-request.ts`, `ui-message-check.ts` (with `ui-part-check.ts`, `ui-fields.ts`,
 * `json-value.ts`), `ui-to-model.ts` (with `reasoning-part.ts`, `tool-rejection.ts`),
 * `pending-tool-responses.ts`, `thread-ui-messages.ts`; workflows on a page:
 * `workflow-chunks.ts` (with `workflow-source.ts`, `workflow-ui-options.ts`,
 * `workflow-parts.ts`, `workflow-run-changes.ts`, `workflow-lanes.ts`, `merge-lanes.ts`);
 * stream out: `approval-id.ts`, `chunk-mapper.ts` with `run-outcome.ts`, `ui-chunks.ts`,
 * `sse.ts`, `agent-response.ts`, `node-listener.ts`; a session run from its recorded
 * events: `session-chunks.ts`; the chat handler over a session: `chat-handler.ts` (with
 * `chat-route.ts`, `chat-context.ts`, `chat-turn.ts`, `chat-answers.ts`,
 * `chat-resume.ts`, `chat-history.ts`, `chat-approvals.ts`, `stream-counter.ts`). It imports `ai/session` and
 * `workflow` and below (floor 7 of docs/architecture.md), never `ai/mcp`.
 *
 * @module
 */

export { type AgentUIOptions, agentUIResponse } from './agent-response.ts';
export { approvalIdOf, parseApprovalId } from './approval-id.ts';
export type { ChatSession } from './chat-context.ts';
export { type ChatHandler, type ChatHandlerOptions, chatHandler } from './chat-handler.ts';
export { MAX_HISTORY_MESSAGES } from './chat-history.ts';
export { type ChatRequestLimits, DEFAULT_CHAT_REQUEST_LIMITS } from './chat-request-limits.ts';
export { type UIChunkMapper, type UIStreamOptions, uiChunkMapper } from './chunk-mapper.ts';
export { type NodeListenerOptions, nodeListener } from './node-listener.ts';
export {
  pendingToolResponses,
  type UIApprovalResponse,
  type UIToolResponse,
} from './pending-tool-responses.ts';
export { type ChatRequest, readChatRequest } from './read-chat-request.ts';
export { type SessionUIOptions, type SessionUISource, sessionUIChunks } from './session-chunks.ts';
export {
  UI_MESSAGE_STREAM_HEADERS,
  type UIStreamLimits,
  type UIStreamResponseInit,
  uiMessageStreamResponse,
} from './sse.ts';
export { threadUIMessages } from './thread-ui-messages.ts';
export { toolResultContent, uiToolErrorText, uiToolOutput } from './tool-output.ts';
export type * from './types.ts';
export { uiMessageChunks } from './ui-chunks.ts';
export { checkUIMessages } from './ui-message-check.ts';
export {
  UIRequestError,
  type UIRequestErrorCode,
  type UIRequestErrorStatus,
} from './ui-request-error.ts';
export { toModelMessages } from './ui-to-model.ts';
export { workflowUIChunks } from './workflow-chunks.ts';
export type { WorkflowUISource } from './workflow-source.ts';
export {
  DEFAULT_WORKFLOW_POLL_MS,
  MAX_WORKFLOW_POLL_MS,
  MAX_WORKFLOW_UI_STREAMS,
  MIN_WORKFLOW_POLL_MS,
  type WorkflowUIOptions,
} from './workflow-ui-options.ts';
