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
 * `server/` and `client/` import `protocol/`, never each other. The public API is what
 * `server/index.ts` and `client/index.ts` export: this file re-exports both, whole.
 *
 * @module
 */

export * from './client/index.ts';
export * from './server/index.ts';
