/**
 * The bounds of a 2026-era `subscriptions/listen` request: the resources one stream may
 * follow are held to the caps of 2025-era `resources/subscribe` (decision 211) — at most
 * {@link MAX_SUBSCRIPTIONS} URIs, {@link MAX_SUBSCRIBED_URI_BYTES} bytes of them, none
 * longer than {@link MAX_RESOURCE_URI_CHARS} — so a stream cannot make each resource
 * update scan an unbounded list. A request past them is refused before the SDK opens
 * the stream, with `-32602` naming the cap.
 */
import type { JSONRPCErrorResponse, JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { MAX_SUBSCRIBED_URI_BYTES, MAX_SUBSCRIPTIONS } from './catalog.ts';
import { MAX_RESOURCE_URI_CHARS } from './resources.ts';

/** The error answering `message` when it is a `subscriptions/listen` past the bounds. */
export function listenBoundsError(message: unknown): JSONRPCErrorResponse | undefined {
  if (!isListen(message)) return undefined;
  const uris = message.params?.notifications?.resourceSubscriptions;
  if (!Array.isArray(uris)) return undefined;
  const problem = boundsProblem(uris);
  if (problem === undefined) return undefined;
  return {
    jsonrpc: '2.0',
    id: message.id as JSONRPCErrorResponse['id'],
    error: { code: -32602, message: `subscriptions/listen: resourceSubscriptions: ${problem}` },
  };
}

/**
 * `transport` (stdio), answering itself each `subscriptions/listen` past the bounds: the
 * handler the SDK sets as `onmessage` never sees them.
 */
export function boundingListens<T extends Transport>(transport: T): T {
  let handler: Transport['onmessage'];
  const bounded = (
    message: JSONRPCMessage,
    extra?: Parameters<NonNullable<Transport['onmessage']>>[1],
  ) => {
    const refusal = listenBoundsError(message);
    if (refusal === undefined) handler?.(message, extra);
    else transport.send(refusal).catch(() => undefined); // the client left
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler === undefined ? undefined : bounded),
    set: (next: Transport['onmessage']) => {
      handler = next;
    },
  });
  return transport;
}

/** What is wrong with the URIs a stream asks to follow, or `undefined`. */
function boundsProblem(uris: unknown[]): string | undefined {
  if (uris.length > MAX_SUBSCRIPTIONS) {
    return `expected at most ${MAX_SUBSCRIPTIONS} URIs, received ${uris.length}; follow fewer resources per stream`;
  }
  let bytes = 0;
  for (const uri of uris) {
    if (typeof uri !== 'string') continue; // the SDK refuses the filter's shape itself
    if (uri.length > MAX_RESOURCE_URI_CHARS) {
      return `expected URIs of at most ${MAX_RESOURCE_URI_CHARS} characters, received one of ${uri.length}`;
    }
    bytes += Buffer.byteLength(uri);
  }
  if (bytes > MAX_SUBSCRIBED_URI_BYTES) {
    return `expected at most ${MAX_SUBSCRIBED_URI_BYTES} bytes of URIs, received ${bytes}; follow fewer resources per stream`;
  }
  return undefined;
}

/** A JSON-RPC `subscriptions/listen` request, as far as the bounds read it. */
interface ListenRequest {
  id: unknown;
  params?: { notifications?: { resourceSubscriptions?: unknown } };
}

function isListen(message: unknown): message is ListenRequest {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'subscriptions/listen' &&
    'id' in message
  );
}
