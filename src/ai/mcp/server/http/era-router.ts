/**
 * Sends each HTTP request to the 2026-07-28 (modern) handler or to the 2025-era session
 * handler, reading a POST body once (decision 088).
 *
 * The SDK's `isLegacyRequest(request)` classifies by cloning the request and reading
 * and parsing the clone's body, and the modern handler then clones, reads and parses
 * it again; each clone tees the body stream. Here the body is read and parsed once and
 * handed to both as `parsedBody`, the SDK's documented escape hatch, which classifies
 * from the value and reads nothing. A body that is empty or not JSON goes to the
 * 2025-era handler, as the SDK's own routing sends it.
 */
import { type AuthInfo, isLegacyRequest } from '@modelcontextprotocol/server';

/** The SDK's request options: a body already parsed, the client a bearer-token check identified. */
type FetchOptions = { parsedBody?: unknown; authInfo?: AuthInfo };
/** A fetch-shaped handler that takes the SDK's request options. */
type Fetch = (request: Request, options?: FetchOptions) => Promise<Response>;

/** Routes between the two handlers; `maxRequestBodySize` as given to them. */
export function eraRouter(
  modern: Fetch,
  legacy: (request: Request, options?: { authInfo?: AuthInfo }) => Promise<Response>,
  maxRequestBodySize: number | undefined,
) {
  return async (request: Request, options?: FetchOptions): Promise<Response> => {
    const auth = options?.authInfo === undefined ? undefined : { authInfo: options.authInfo };
    // A session id is 2025-era traffic by definition.
    if (request.headers.has('mcp-session-id')) return legacy(request, auth);
    if (request.method.toUpperCase() !== 'POST' || options?.parsedBody !== undefined) {
      return (await isLegacyRequest(request, options?.parsedBody, { maxRequestBodySize }))
        ? legacy(request, auth)
        : modern(request, options);
    }
    let text: string;
    try {
      text = await request.text();
    } catch {
      return modern(request, options); // answers an unreadable body with its parse error
    }
    const parsedBody = parseJson(text);
    // The body is consumed: the 2025-era handler reads a copy made from the text.
    const replay = () => new Request(request, { body: text });
    if (parsedBody === undefined) return legacy(replay(), auth);
    return (await isLegacyRequest(request, parsedBody, { maxRequestBodySize }))
      ? legacy(replay(), auth)
      : modern(request, { ...options, parsedBody });
  };
}

/** The JSON value of a body, or `undefined` when it is empty or not JSON. */
function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
