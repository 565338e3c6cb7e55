/**
 * Answers, before the 2026-era handler, a request the server refuses outright: the
 * server's `refuse` says which (a `subscriptions/listen` past its bounds) and with what
 * JSON-RPC error, sent in-band with HTTP 200 as the SDK sends its own listen refusals.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

/** The SDK's request options: a body already parsed, the client a bearer-token check identified. */
type FetchOptions = { parsedBody?: unknown; authInfo?: AuthInfo };
/** A fetch-shaped handler that takes the SDK's request options. */
type Fetch = (request: Request, options?: FetchOptions) => Promise<Response>;

/** `modern`, answering first the bodies `refuse` refuses. */
export function refusing(
  modern: Fetch,
  refuse: ((body: unknown) => object | undefined) | undefined,
): Fetch {
  if (refuse === undefined) return modern;
  return async (request, options) => {
    const refusal = refuse(options?.parsedBody);
    if (refusal === undefined) return modern(request, options);
    return new Response(JSON.stringify(refusal), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}
