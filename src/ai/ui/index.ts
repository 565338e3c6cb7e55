/**
 * `fino:ai/ui`: fino agents, sessions and workflows behind the chat front ends people
 * already use. It speaks the AI SDK's UI message stream protocol (server-sent events of
 * `UIMessageChunk`s, as `ai` 7 defines it), so `useChat` from `@ai-sdk/react`, or `ai`'s
 * `Chat` and `DefaultChatTransport`, talk to fino unchanged.
 *
 * Its files, one concept each: `types.ts` (the protocol's chunks and messages in fino's
 * types, and fino's data parts); `tool-output.ts` (a tool result as a tool part's
 * `output`, and back); stream out (28a): `approval-id.ts`, `chunk-mapper.ts` with
 * `run-outcome.ts`, `ui-chunks.ts`, `sse.ts`, `agent-response.ts`, `node-listener.ts`. It imports `ai/session` and `workflow` and below
 * (floor 7 of docs/architecture.md), never `ai/mcp`.
 *
 * @module
 */

export { type AgentUIOptions, agentUIResponse } from './agent-response.ts';
export { approvalIdOf, parseApprovalId } from './approval-id.ts';
export { type UIChunkMapper, type UIStreamOptions, uiChunkMapper } from './chunk-mapper.ts';
export { type NodeListenerOptions, nodeListener } from './node-listener.ts';
export {
  UI_MESSAGE_STREAM_HEADERS,
  type UIStreamLimits,
  type UIStreamResponseInit,
  uiMessageStreamResponse,
} from './sse.ts';
export { toolResultContent, uiToolOutput } from './tool-output.ts';
export type * from './types.ts';
export { uiMessageChunks } from './ui-chunks.ts';
