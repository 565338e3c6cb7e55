/**
 * `ai/mcp/server`: `mcpServer()` and everything that answers an MCP client. Where a
 * request is answered:
 * - `tools/list`, `tools/call`: `tool-handlers.ts` (the call itself, with approval by
 *   elicitation and resumable call state: `call-tool.ts`, `call-state.ts`);
 * - `resources/*`, `prompts/*`, `completion/complete`: `catalog.ts` (what is served:
 *   `resources.ts`, `prompts.ts`, `completions.ts`);
 * - requests the server sends the client (elicitation, sampling, logging):
 *   `server-requests.ts`; progress notifications: `progress-notifier.ts`;
 * - Streamable HTTP, its guard, the era routing and the OAuth bearer check: `http/`;
 * - `tasks/*` and task-augmented `tools/call` (MCP Tasks, kept in a session store): `tasks/`.
 *
 * May import: `../protocol/index.ts`, the MCP SDK, `src/internal/`, other modules
 * through their `index.ts`. Never `../client/`. The rooms `http/` and `tasks/` are
 * reached through their `index.ts`. This file is what `fino:ai/mcp` re-exports.
 */
export type { ApprovalMode } from './call-tool.ts';
export type {
  HttpGuardOptions,
  McpHandlerOptions,
  McpHttpServer,
  McpListenOptions,
  McpNodeHandler,
  McpServerAuth,
  VerifiedToken,
  VerifyContext,
} from './http/index.ts';
export {
  type McpServedPrompt,
  type PromptContext,
  type PromptMessageInput,
  type PromptOptions,
  prompt,
} from './prompts.ts';
export {
  type AnyResource,
  type CompleteFn,
  type McpResource,
  type McpResourceTemplate,
  type ResourceContent,
  type ResourceContext,
  type ResourceOptions,
  type ResourceReadResult,
  type ResourceTemplateOptions,
  resource,
  resourceTemplate,
} from './resources.ts';
export { type McpToolServer, mcpServer, type StdioStreams } from './server.ts';
export type { McpServerOptions } from './server-options.ts';
export { MIN_STATE_KEY_BYTES, type StateKey } from './state-key.ts';
export {
  type McpServerTaskOptions,
  type McpTaskCursor,
  type McpTaskRecord,
  type McpTaskStore,
  mcpTaskStore,
  type NewMcpTask,
} from './tasks/index.ts';
export { toMcpTool } from './tool-listing.ts';
