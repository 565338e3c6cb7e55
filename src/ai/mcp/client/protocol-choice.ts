/**
 * `mcpClient({ protocol })`: which MCP revision a client speaks — negotiated (the
 * default) or pinned to one — and the SDK client options that choice becomes
 * (decision 212).
 */
import type { ClientOptions, Transport } from '@modelcontextprotocol/client';
import { describeValue } from '../../../internal/describe-value.ts';
import type { McpTransportSpec } from './transports.ts';

/** The MCP revisions a client can pin, newest first. */
export const MCP_PROTOCOL_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;

/** An MCP revision a client can pin: {@link MCP_PROTOCOL_REVISIONS}. */
export type McpProtocolRevision = (typeof MCP_PROTOCOL_REVISIONS)[number];

/** The SDK client options a protocol choice sets. */
type Negotiation = Pick<ClientOptions, 'versionNegotiation' | 'supportedProtocolVersions'>;

/** Throws unless `protocol` is `undefined`, `'auto'` or one of {@link MCP_PROTOCOL_REVISIONS}. */
export function checkProtocol(protocol: unknown): void {
  if (protocol === undefined || protocol === 'auto') return;
  if ((MCP_PROTOCOL_REVISIONS as readonly unknown[]).includes(protocol)) return;
  throw new TypeError(
    `mcpClient: protocol: expected 'auto' or one of ${MCP_PROTOCOL_REVISIONS.map((r) => `'${r}'`).join(', ')}, received ${describeValue(protocol)}`,
  );
}

/**
 * The SDK's negotiation for `protocol` over `spec`. Negotiated: Streamable HTTP probes
 * for 2026-07-28 and falls back to the 2025 handshake; stdio speaks the 2025 handshake
 * every server knows, without the probe's extra process (decision 044). Pinned to
 * 2026-07-28: the server must offer it. Pinned to a 2025 revision: the 2025 handshake
 * offering only that revision, so a server answering another one is refused.
 */
export function negotiationFor(
  protocol: McpProtocolRevision | 'auto' | undefined,
  spec: McpTransportSpec | Transport,
): Negotiation {
  if (protocol === '2026-07-28') return { versionNegotiation: { mode: { pin: protocol } } };
  if (protocol !== undefined && protocol !== 'auto') {
    return { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [protocol] };
  }
  const stdio = 'kind' in spec && spec.kind === 'stdio';
  return stdio ? {} : { versionNegotiation: { mode: 'auto' } };
}
