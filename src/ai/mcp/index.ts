/**
 * `fino:ai/mcp`: serve fino tools to any MCP client, and use any MCP server's tools as
 * fino tools — over stdio or Streamable HTTP, built on the official MCP TypeScript SDK.
 *
 * @module
 */

export type { ApprovalMode } from './call-tool.ts';
export {
  type McpClientOptions,
  type McpClientTaskOptions,
  type McpClientWarning,
  type McpToolClient,
  mcpClient,
  type ToolsChangedListener,
} from './client.ts';
export type {
  McpCatalogClient,
  RemoteResources,
  SampleHandler,
  ServerLogMessage,
} from './client-catalog.ts';
export {
  McpConnectionError,
  type McpConnectionErrorCode,
} from './connection-error.ts';
export type { ToolsDiff } from './fingerprint.ts';
export type { HttpGuardOptions } from './http-guard.ts';
export type { McpHandlerOptions, McpNodeHandler } from './http-handler.ts';
export type { McpHttpServer, McpListenOptions } from './listen.ts';
export {
  type McpOAuth,
  type OAuthOptions,
  oauth,
} from './oauth/client-auth.ts';
export type { McpServerAuth, VerifiedToken } from './oauth/server-auth.ts';
export {
  fileTokenStore,
  memoryTokenStore,
  type OAuthRecord,
  type TokenStore,
} from './oauth/token-store.ts';
export {
  type McpServedPrompt,
  type PromptContext,
  type PromptMessageInput,
  type PromptOptions,
  prompt,
} from './prompts.ts';
export type { RemoteTaskInput, RemoteTaskResume } from './remote-task.ts';
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
export {
  type McpServerOptions,
  type McpToolServer,
  mcpServer,
  type StdioStreams,
} from './server.ts';
export type { McpServerTaskOptions } from './tasks/task-options.ts';
export { toMcpTool } from './tool-listing.ts';
export {
  type HttpTransportOptions,
  httpTransport,
  type McpTransportSpec,
  type StdioTransportOptions,
  stdioTransport,
} from './transports.ts';
