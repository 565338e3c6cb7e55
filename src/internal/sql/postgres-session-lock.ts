/**
 * A lock held by this process for as long as it lives: a PostgreSQL session advisory lock
 * (`pg_try_advisory_lock`) on a connection of its own, taken from the store's pool and
 * held. The server frees it when that connection ends — at `release()`, and when the
 * process dies however it dies (its socket closes with it), so a restarted process can
 * take it at once while a live one keeps it. A connection that breaks (a restart, a
 * failover) loses the lock: `onLost` is called, and the holder must take it again.
 */
import type { PgClientLike, PgPoolLike } from './postgres-driver.ts';

/** A `pg` client as the lock uses it: its failures. */
interface LockClient extends Pick<PgClientLike, 'query' | 'release'> {
  on(event: 'error' | 'end', listener: (error?: Error) => void): unknown;
}

/** Takes the lock named `key`, or `undefined` when another session holds it. */
export async function sessionLock(
  pool: () => Promise<PgPoolLike>,
  key: string,
  onLost: () => void,
): Promise<{ release(): Promise<void> } | undefined> {
  const client = (await (await pool()).connect()) as unknown as LockClient;
  let ended = false;
  const end = (error: Error) => {
    if (ended) return false;
    ended = true;
    client.release(error); // discarded: its session, and with it the lock, ends
    return true;
  };
  const lost = (error?: Error) => {
    if (end(error ?? new Error('the lock connection ended'))) onLost();
  };
  client.on('error', lost);
  client.on('end', lost);
  let taken: boolean;
  try {
    const { rows } = await client.query(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken',
      [key],
    );
    taken = (rows[0] as { taken: boolean }).taken === true;
  } catch (error) {
    end(error as Error);
    throw error;
  }
  if (!taken) {
    end(new Error('the lock is held elsewhere'));
    return undefined;
  }
  return {
    async release() {
      end(new Error('the lock is released'));
    },
  };
}
