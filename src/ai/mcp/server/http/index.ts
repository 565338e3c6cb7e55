/**
 * `ai/mcp/server/http`: serving an `mcpServer()` over Streamable HTTP — the Node handler
 * (`http-handler.ts`) that routes each request to the 2025 or the 2026 protocol era
 * (`era-router.ts`, `legacy-sessions.ts` for 2025-era sessions), the request guard
 * (Host/Origin checks, body limits: `http-guard.ts`), `listen()` (`listen.ts`), and the
 * OAuth 2.1 resource-server side: protected-resource metadata, bearer tokens, scopes
 * (`oauth.ts`).
 *
 * May import: the MCP SDK, `src/internal/`. Nothing else of `ai/mcp`: the server hands
 * the handler its `createServer` functions.
 */
export type { HttpGuardOptions } from './http-guard.ts';
export { httpHandler, type McpHandlerOptions, type McpNodeHandler } from './http-handler.ts';
export { listenHttp, type McpHttpServer, type McpListenOptions } from './listen.ts';
export {
  type McpServerAuth,
  missingScopes,
  type ServerAuth,
  serverAuth,
  type VerifiedToken,
  type VerifyContext,
} from './oauth.ts';
