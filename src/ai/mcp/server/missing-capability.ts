/**
 * What a tool's `ctx.sample`, `ctx.elicit` or `ctx.listRoots` throws when the client did
 * not declare the capability it needs (decision 209).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  type ServerContext,
} from '@modelcontextprotocol/server';

/**
 * On a 2026-era request (the client's capabilities travel with it) the protocol's
 * `-32021` MissingRequiredClientCapabilityError, which the call answers as that JSON-RPC
 * error (HTTP 400), as the revision requires; on a 2025 connection a plain `Error`, which
 * the call answers as a tool error, as before.
 */
export function missingCapability(
  ctx: ServerContext,
  capability: 'sampling' | 'elicitation' | 'roots',
  message: string,
): Error {
  if (ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] === undefined) {
    return new Error(message);
  }
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { [capability]: {} } } as never,
    message,
  );
}
