/**
 * `ai/model/wire`: how a provider adapter talks to its server over HTTP — the transport
 * (one POST, retried on transient failures), its attempts and timeouts, the byte limits,
 * server-sent events, the error of a failed response, and the guard that makes a stream
 * abortable.
 *
 * May import: `../core/` and `src/internal/`; never `usage/`, `provider/` or a provider room.
 */
export { guardedStream } from './guarded-stream.ts';
export { type RetryOptions, streamError } from './http.ts';
export type { TimeoutOptions } from './timeouts.ts';
export {
  type EventStream,
  type ProviderRequest,
  TRANSPORT_OPTIONS,
  type TransportOptions,
  transport,
  type WireFormat,
} from './transport.ts';
