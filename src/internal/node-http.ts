/**
 * The bridge from Node's `http` to web-standard handlers, shared by the approval inbox's
 * server and `fino:ai/ui`'s `nodeListener`: a Node request as a `Request` (aborted when
 * the client leaves), and a `Response` written back as it streams, waiting for the socket
 * to drain so a slow client slows the reading instead of filling memory.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** A web-standard request handler. */
export type WebHandler = (request: Request) => Response | Promise<Response>;

/**
 * Runs `handle` on one Node request and writes its response back, streaming the body
 * (server-sent events stay open until the body ends or the client leaves). `host` names
 * the server in the request's URL (the `Host` header, checked by the caller when it
 * matters).
 */
export async function bridgeNodeRequest(
  handle: WebHandler,
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${host}`);
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request\n');
    return;
  }
  const aborted = new AbortController();
  res.once('close', () => aborted.abort());
  const response = await handle(toWebRequest(req, url, aborted.signal));
  await writeWebResponse(response, req, res);
}

function toWebRequest(req: IncomingMessage, url: URL, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method,
    headers,
    signal,
    ...(hasBody && { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' }),
  } as RequestInit);
}

async function writeWebResponse(
  response: Response,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  res.writeHead(response.status, out);
  if (!response.body || req.method === 'HEAD') {
    await response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // A plain listener, not `events.once`: that rejects on an `error` event, which nobody awaits here.
  const closed = new Promise<void>((resolve) => {
    res.once('close', () => {
      void reader.cancel().catch(() => {});
      resolve();
    });
  });
  res.flushHeaders();
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.destroyed) break;
    if (!res.write(value)) {
      await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    }
  }
  res.end();
}
