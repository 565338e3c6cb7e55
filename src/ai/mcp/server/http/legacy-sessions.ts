/**
 * Serving 2025-era clients over Streamable HTTP with sessions: each `initialize` opens a
 * session (an SDK `WebStandardStreamableHTTPServerTransport` and its own `Server`), so the
 * server can ask the client questions (elicitation) and hear `notifications/cancelled`
 * for calls in flight — both impossible when every request meets a fresh instance.
 * See docs/decisions/043.
 */
import { randomUUID } from 'node:crypto';
import {
  type AuthInfo,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

/** Most sessions kept open at once; the oldest is closed to admit a new one. */
const MAX_SESSIONS = 1000;

/** A fetch-shaped handler for 2025-era requests, and a way to end every session. */
export interface LegacySessions {
  /** `authInfo`: the client a bearer-token check in front of the endpoint identified. */
  fetch(request: Request, options?: { authInfo?: AuthInfo }): Promise<Response>;
  close(): Promise<void>;
}

const jsonRpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/** Sessions whose servers come from `createServer`. */
export function legacySessions(createServer: () => Server): LegacySessions {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

  return {
    async fetch(request, options) {
      const forwarded =
        options?.authInfo === undefined ? undefined : { authInfo: options.authInfo };
      const id = request.headers.get('mcp-session-id');
      if (id !== null) {
        const transport = sessions.get(id);
        if (transport === undefined) {
          return jsonRpcError(404, -32001, 'Session not found: initialize a new session');
        }
        return transport.handleRequest(request, forwarded);
      }
      if (request.method !== 'POST') {
        return jsonRpcError(400, -32000, 'Bad Request: an Mcp-Session-Id header is required');
      }
      const transport: WebStandardStreamableHTTPServerTransport =
        new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sessionId) => {
            if (sessions.size >= MAX_SESSIONS) {
              const [oldest] = sessions.values();
              void oldest.close();
            }
            sessions.set(sessionId, transport);
          },
          onsessionclosed: (sessionId) => void sessions.delete(sessionId),
        });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await createServer().connect(transport);
      const response = await transport.handleRequest(request, forwarded);
      if (transport.sessionId === undefined) await transport.close();
      return response;
    },
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
    },
  };
}
