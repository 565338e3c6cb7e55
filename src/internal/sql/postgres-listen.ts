/**
 * PostgreSQL `LISTEN` on a connection of its own, taken from the store's pool and held:
 * each `NOTIFY` on the channel reaches `onNotify` with its payload. When the connection
 * breaks (a restart, a failover, `pg_terminate_backend`) it is discarded and a new one
 * listens again, after 100 ms doubling to 5 s while the server stays away; once it
 * listens again `onNotify()` is called without a payload, since notifications sent
 * meanwhile are lost. Until then the listener hears nothing: its user must poll too.
 */
import type { PgClientLike, PgPoolLike } from './postgres-driver.ts';

/** A `pg` client as the listener uses it: its notifications and its end. */
interface ListeningClient extends Pick<PgClientLike, 'query' | 'release'> {
  on(
    event: 'notification',
    listener: (message: { channel: string; payload?: string }) => void,
  ): unknown;
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
}

/** Waits between attempts to listen again: from the first, doubling to the longest. */
const RECONNECT = { firstDelayMs: 100, maxDelayMs: 5_000 };

/** A quoted SQL identifier. */
const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Listens on `channel` over a connection of `pool` until `close()`, reconnecting after failures. */
export function listenChannel(
  pool: () => Promise<PgPoolLike>,
  channel: string,
  onNotify: (payload?: string) => void,
): { close(): Promise<void> } {
  let closed = false;
  /** Discards the connection that listens now, once. */
  let discardCurrent: ((error: Error) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = RECONNECT.firstDelayMs;

  const again = () => {
    if (closed) return;
    timer = setTimeout(() => void connect(), delay);
    timer.unref?.();
    delay = Math.min(delay * 2, RECONNECT.maxDelayMs);
  };

  const connect = async () => {
    let client: ListeningClient;
    try {
      client = (await (await pool()).connect()) as unknown as ListeningClient;
    } catch {
      again();
      return;
    }
    let discarded = false;
    // Discarded, never returned to the pool: it still listens, or it broke.
    const discard = (error: Error) => {
      if (discarded) return false;
      discarded = true;
      if (discardCurrent === discard) discardCurrent = undefined;
      client.release(error);
      return true;
    };
    if (closed) {
      discard(new Error('the listener is closed'));
      return;
    }
    discardCurrent = discard;
    const onBroken = (error?: Error) => {
      if (discard(error ?? new Error('the LISTEN connection ended'))) again();
    };
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload || undefined);
    });
    client.on('error', onBroken);
    client.on('end', onBroken);
    try {
      await client.query(`LISTEN ${identifier(channel)}`);
    } catch (error) {
      onBroken(error as Error);
      return;
    }
    delay = RECONNECT.firstDelayMs;
    onNotify(); // whatever was notified while nobody listened
  };

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      discardCurrent?.(new Error('the listener is closed'));
    },
  };
}
