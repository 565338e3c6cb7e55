/**
 * The log level a client asks for, in both eras (decision 210). On 2025 revisions it is
 * the connection's state, set with `logging/setLevel`. The 2026-07-28 revision removes
 * that request: a client asks per request, with `_meta["io.modelcontextprotocol/logLevel"]`,
 * and a server sends no log message for a request that did not ask. `LoggingClient`
 * stamps the level on every request it sends on a 2026 connection.
 */
import { Client, LOG_LEVEL_META_KEY, type LoggingLevel } from '@modelcontextprotocol/client';
import { describeValue } from '../../../internal/describe-value.ts';
import { LOG_LEVELS } from '../../../task/index.ts';
import { isModernRevision } from '../protocol/index.ts';

/** The SDK client, which asks for its log level on each request of a 2026 connection. */
export class LoggingClient extends Client {
  /** The level asked for on each request of a 2026 connection; none asks for no logs. */
  logLevel: LoggingLevel | undefined;

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (envelope === undefined || this.logLevel === undefined) return envelope;
    return { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel };
  }

  /** Whether this connection speaks a 2026-era revision. */
  get modern(): boolean {
    return isModernRevision(this.getNegotiatedProtocolVersion());
  }

  /** Asks for log messages at `level` and above, as the negotiated revision does it. */
  async askLogLevel(level: LoggingLevel): Promise<void> {
    if (!(LOG_LEVELS as readonly string[]).includes(level)) {
      throw new TypeError(
        `mcpClient.setLogLevel: level: expected one of ${LOG_LEVELS.join(', ')}, received ${describeValue(level)}`,
      );
    }
    if (this.modern) this.logLevel = level;
    else await this.setLoggingLevel(level);
  }
}
