/**
 * A load balancer for tests: an HTTP proxy on 127.0.0.1 in front of several servers of
 * one app, passing each request and its response on as they stream (server-sent events
 * included, nothing buffered), round robin unless the test pins the next requests to
 * one server. When a server dies mid-response the client's connection is cut, as a real
 * balancer does; when the client leaves, the server's connection is closed. `log` says
 * where each request went.
 *
 * @example
 * ```ts
 * const balancer = await httpBalancer([portA, portB]);
 * balancer.pin(1); // the next requests go to B
 * await fetch(`${balancer.url}/api/chat/c1/messages`);
 * console.log(balancer.log); // [{ method: 'GET', path: '/api/chat/c1/messages', upstream: 1 }]
 * await balancer.close();
 * ```
 */
import {
  createServer,
  request as forwardRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the balancer passed on: to which server (an index of its ports). */
export interface BalancedRequest {
  method: string;
  path: string;
  upstream: number;
}

export interface HttpBalancer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Sends the next requests to server `upstream` (an index of the ports), or round robin again. */
  pin(upstream: number | undefined): void;
  readonly log: BalancedRequest[];
  close(): Promise<void>;
}

/** Starts a balancer in front of the servers on `ports` (of 127.0.0.1). */
export async function httpBalancer(ports: number[]): Promise<HttpBalancer> {
  const log: BalancedRequest[] = [];
  let pinned: number | undefined;
  let turn = 0;
  const server = createServer((req, res) => {
    const upstream = pinned ?? turn++ % ports.length;
    log.push({ method: req.method ?? 'GET', path: req.url ?? '/', upstream });
    forward(req, res, ports[upstream]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pin(upstream) {
      pinned = upstream;
    },
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Passes `req` on to the server on `port` and its answer back, chunk by chunk. */
function forward(req: IncomingMessage, res: ServerResponse, port: number): void {
  const upstream = forwardRequest(
    {
      host: '127.0.0.1',
      port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent: false,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.pipe(res);
      // The server died or hung up mid-response: the client sees its connection cut.
      answer.once('close', () => answer.complete || res.destroy());
    },
  );
  upstream.once('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
  req.pipe(upstream);
  res.once('close', () => upstream.destroy());
}
