/**
 * `fino:ai/mcp`: serve fino tools to any MCP client, and use any MCP server's tools as
 * fino tools — over stdio or Streamable HTTP, built on the official MCP TypeScript SDK.
 *
 * The module has three rooms:
 * - `server/`: `mcpServer()` and what answers a client's requests — `tools/list` and
 *   `tools/call` (`server/tool-handlers.ts`), resources, prompts and completions
 *   (`server/catalog.ts`), questions back to the client (`server/server-requests.ts`),
 *   Streamable HTTP with its guard and OAuth bearer check (`server/http/`), and durable
 *   MCP Tasks with their store (`server/tasks/`).
 * - `client/`: `mcpClient()` and what it builds — remote tools, the server's resources
 *   and prompts, answers to the server's elicitation and sampling requests, transports,
 *   OAuth login and token stores, connection errors, and remote MCP tasks it follows
 *   (`client/tasks/`).
 * - `protocol/`: what both sides read and write the same way — content blocks, tool
 *   annotations, the approval `_meta` keys, structured output.
 *
 * `server/` and `client/` import `protocol/`, never each other; this file re-exports
 * the public API from `server/index.ts` and `client/index.ts`.
 *
 * @module
 */

export {
  fileTokenStore,
  type HttpTransportOptions,
  httpTransport,
  type McpCatalogClient,
  type McpClientOptions,
  type McpClientTaskOptions,
  type McpClientWarning,
  McpConnectionError,
  type McpConnectionErrorCode,
  type McpOAuth,
  type McpToolClient,
  type McpTransportSpec,
  mcpClient,
  memoryTokenStore,
  type OAuthOptions,
  type OAuthRecord,
  oauth,
  type RemoteResources,
  type RemoteTaskInput,
  type RemoteTaskResume,
  type SampleHandler,
  type ServerLogMessage,
  type StdioTransportOptions,
  sampleWith,
  stdioTransport,
  type TokenStore,
  type ToolsChangedListener,
  type ToolsDiff,
} from './client/index.ts';
export {
  type AnyResource,
  type ApprovalMode,
  type CompleteFn,
  type HttpGuardOptions,
  type McpHandlerOptions,
  type McpHttpServer,
  type McpListenOptions,
  type McpNodeHandler,
  type McpResource,
  type McpResourceTemplate,
  type McpServedPrompt,
  type McpServerAuth,
  type McpServerOptions,
  type McpServerTaskOptions,
  type McpTaskCursor,
  type McpTaskRecord,
  type McpTaskStore,
  type McpToolServer,
  mcpServer,
  mcpTaskStore,
  type NewMcpTask,
  type PromptContext,
  type PromptMessageInput,
  type PromptOptions,
  prompt,
  type ResourceContent,
  type ResourceContext,
  type ResourceOptions,
  type ResourceReadResult,
  type ResourceTemplateOptions,
  resource,
  resourceTemplate,
  type StdioStreams,
  toMcpTool,
  type VerifiedToken,
} from './server/index.ts';
