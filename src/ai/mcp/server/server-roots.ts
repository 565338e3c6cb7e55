/**
 * `ctx.listRoots()` of a call served over MCP: a `roots/list` request to a 2025-era
 * client on the call's stream, or an input request on 2026-07-28 (`input-rounds.ts`);
 * the answer checked and capped. Decision 208.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { describeValue } from '../../../internal/describe-value.ts';
import type { ListRootsRequest, Root } from '../../../task/index.ts';
import { missingCapability } from './missing-capability.ts';
import { type CapabilitiesOf, onRequestStream, requestCapabilities } from './server-requests.ts';

/** The most roots one answer may list; a longer list is refused, not cut. */
export const MAX_ROOTS = 1000;

/** Sends `roots/list` and resolves with the client's answer. */
export type AskRoots = (key: string | undefined) => Promise<unknown>;

/** `ctx.listRoots` of a call served over MCP. */
export function mcpListRoots(
  ctx: ServerContext,
  connection: CapabilitiesOf,
  send: AskRoots = () =>
    ctx.mcpReq.send(
      { method: 'roots/list' },
      { ...onRequestStream(ctx), signal: ctx.mcpReq.signal },
    ),
): (request?: ListRootsRequest) => Promise<Root[]> {
  return async (request) => {
    if (requestCapabilities(ctx, connection)?.roots === undefined) {
      throw missingCapability(
        ctx,
        'roots',
        'ctx.listRoots: this MCP client shares no roots (it declares no roots capability); ask for the paths another way',
      );
    }
    return checkedRoots(await send(request?.key));
  };
}

/** The client's `{ roots }` answer as clean `Root`s; an `Error` naming what was wrong. */
export function checkedRoots(answer: unknown): Root[] {
  const roots = (answer as { roots?: unknown } | undefined)?.roots;
  if (!Array.isArray(roots)) {
    throw new Error(
      `ctx.listRoots: the client's answer is not { roots: [{ uri, name? }] }, received ${describeValue(answer)}`,
    );
  }
  if (roots.length > MAX_ROOTS) {
    throw new Error(
      `ctx.listRoots: the client listed ${roots.length} roots; at most ${MAX_ROOTS} are accepted`,
    );
  }
  return roots.map((root: unknown, index) => {
    const { uri, name } = (root ?? {}) as { uri?: unknown; name?: unknown };
    if (typeof uri !== 'string' || !uri.startsWith('file://')) {
      throw new Error(
        `ctx.listRoots: roots[${index}].uri: expected a file:// URI, received ${describeValue(uri)}`,
      );
    }
    return typeof name === 'string' ? { uri, name } : { uri };
  });
}
