/** A Web request handler (a UI message stream route) on Node's `http` server. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bridgeNodeRequest, type WebHandler } from '../../internal/node-http.ts';

/** Options of {@link nodeListener}. */
export interface NodeListenerOptions {
  /** Called with what a handler threw (default `console.error`); the client gets a 500. */
  onError?: (error: unknown) => void;
}

/**
 * A `node:http` request listener that runs a web-standard handler: the Node request as a
 * `Request` (its `signal` aborts when the client leaves), the `Response` streamed back at
 * the pace the client reads (decision 247).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { agentUIResponse, nodeListener } from 'fino:ai/ui';
 *
 * const bot = agent({ model: scriptedModel(['Hello!']) });
 * const server = createServer(
 *   nodeListener((request) => agentUIResponse(bot, 'Hi', { signal: request.signal })),
 * );
 * server.listen(0, '127.0.0.1', async () => {
 *   const { port } = server.address() as { port: number };
 *   const body = await (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST' })).text();
 *   console.log(body.endsWith('data: [DONE]\n\n')); // true
 *   server.close();
 * });
 * ```
 */
export function nodeListener(
  handler: WebHandler,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    bridgeNodeRequest(handler, req, res, req.headers.host || 'localhost').catch(
      (error: unknown) => {
        (options.onError ?? console.error)(error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end();
      },
    );
  };
}
