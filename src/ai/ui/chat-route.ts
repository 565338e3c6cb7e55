/** Which route of a chat handler a request is for, by method and path. */
import type { ResolvedLimits } from './chat-request-limits.ts';
import { id } from './ui-fields.ts';
import { UIRequestError } from './ui-request-error.ts';

/** A chat handler's routes: post a message, resume a chat's stream, read its messages. */
export type ChatRoute =
  | { kind: 'post' }
  | { kind: 'stream'; chatId: string }
  | { kind: 'messages'; chatId: string };

/**
 * The route of `request` under `basePath`: `POST base`, `GET base/:id/stream`,
 * `GET base/:id/messages`. 404 for another path, 405 (with `allow`) for another method.
 */
export function chatRoute(request: Request, basePath: string, limits: ResolvedLimits): ChatRoute {
  const path = new URL(request.url).pathname.replace(/\/+$/, '');
  if (path === basePath) return method(request, 'POST', { kind: 'post' });
  const rest = path.startsWith(`${basePath}/`) ? path.slice(basePath.length + 1).split('/') : [];
  if (rest.length === 2 && (rest[1] === 'stream' || rest[1] === 'messages')) {
    return method(request, 'GET', { kind: rest[1], chatId: chatIdOf(rest[0], limits) });
  }
  throw new UIRequestError(
    'NOT_FOUND',
    `Expected POST ${basePath}, GET ${basePath}/:id/stream or GET ${basePath}/:id/messages; received ${request.method} ${path.slice(0, 300)}.`,
  );
}

function method<T extends ChatRoute>(request: Request, allowed: string, route: T): T {
  if (request.method === allowed) return route;
  throw new UIRequestError(
    'METHOD_NOT_ALLOWED',
    `Expected ${allowed} on this path, received ${request.method}.`,
    { allow: allowed },
  );
}

/**
 * The chat id of a path segment, decoded and checked as a posted chat's `id` is. A bad
 * percent-escape is refused, not taken as the literal text: `ai`'s transport encodes the
 * id with `encodeURIComponent`, so a segment it cannot decode is no chat's.
 */
function chatIdOf(segment: string, limits: ResolvedLimits): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new UIRequestError(
      'INVALID_REQUEST',
      `the path's chat id: expected UTF-8 percent-encoded as encodeURIComponent does it, received ${JSON.stringify(segment.slice(0, 300))}.`,
    );
  }
  try {
    return id(decoded, "the path's chat id", limits) as string;
  } catch (error) {
    if (!(error instanceof UIRequestError)) throw error;
    throw new UIRequestError('INVALID_REQUEST', error.message);
  }
}
