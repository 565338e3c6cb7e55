/**
 * `ai/mcp/client`: `mcpClient()` and everything that uses a remote MCP server — remote
 * tools as fino tools (`remote-tool.ts`), the server's resources, prompts and
 * completions (`client-catalog.ts`), answers to what the server asks (elicitation,
 * sampling, logs, progress: `server-messages.ts`, `sampling-requests.ts`), transports
 * and connection errors, OAuth login (`oauth.ts`, `oauth-provider.ts`, the checks of
 * `authorization-server.ts`, `auth-error.ts`) and token stores (`token-store.ts`,
 * `file-token-store.ts` with `file-lock.ts`), tool-list fingerprints (refreshed through
 * `coalesced.ts`), the revision it speaks (`protocol-choice.ts`) and what differs by
 * revision: the log level (`log-level.ts`) and followed resources (`resource-follows.ts`), and remote MCP tasks the client follows (`tasks/`).
 *
 * May import: `../protocol/index.ts`, the MCP SDK, `src/internal/`, other modules
 * through their `index.ts`. Never `../server/`. This file is what `fino:ai/mcp`
 * re-exports.
 */

export { McpAuthError, type McpAuthErrorCode } from './auth-error.ts';
export { type McpToolClient, mcpClient } from './client.ts';
export type {
  McpCatalogClient,
  RemoteResources,
  SampleHandler,
  ServerLogMessage,
} from './client-catalog.ts';
export type {
  McpClientOptions,
  McpClientTaskOptions,
  McpClientWarning,
} from './client-options.ts';
export { McpConnectionError, type McpConnectionErrorCode } from './connection-error.ts';
export { fileTokenStore } from './file-token-store.ts';
export type { ToolsDiff } from './fingerprint.ts';
export { type McpOAuth, type OAuthOptions, oauth } from './oauth.ts';
export { MCP_PROTOCOL_REVISIONS, type McpProtocolRevision } from './protocol-choice.ts';
export { sampleWith } from './sample-with.ts';
export {
  DEFAULT_SAMPLING_MAX_TOKENS,
  type McpClientSamplingOptions,
} from './sampling-requests.ts';
export type { RemoteTaskInput, RemoteTaskResume } from './tasks/index.ts';
export { memoryTokenStore, type OAuthRecord, type TokenStore } from './token-store.ts';
export type { ToolsChangedListener } from './tool-listings.ts';
export {
  type HttpTransportOptions,
  httpTransport,
  type McpTransportSpec,
  type StdioTransportOptions,
  stdioTransport,
} from './transports.ts';
