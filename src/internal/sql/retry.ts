/**
 * Retrying a database operation through failures that are normally transient (a lost or
 * refused connection, a serialization failure, SQLite busy), with exponential backoff and
 * jitter, for at most a time budget; past it, the last failure becomes an `UNAVAILABLE`
 * {@link SqlFailure}. Any other error is passed on at once. Decision 102.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SqlFailure } from './errors.ts';

/** How long to keep retrying, and how long to wait between attempts, in milliseconds. */
export interface RetryPolicy {
  /** No new attempt starts later than this after the first one started (0: no retry). */
  budgetMs: number;
  /** The wait after the first failure (default 50); it doubles after each one. */
  firstDelayMs?: number;
  /** The longest wait between two attempts (default 2 000). */
  maxDelayMs?: number;
}

/**
 * `attempt()`, tried again after each failure `isTransient` accepts while the budget
 * lasts. `database` names what failed in the `UNAVAILABLE` message ("the session database").
 */
export async function retryTransient<T>(
  attempt: () => Promise<T>,
  isTransient: (error: unknown) => boolean,
  policy: RetryPolicy,
  database: string,
): Promise<T> {
  const started = Date.now();
  let delay = policy.firstDelayMs ?? 50;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      // A failure the layer already judged (a commit cut mid-way) is never tried again.
      if (error instanceof SqlFailure || !isTransient(error)) throw error;
      const elapsed = Date.now() - started;
      const wait = Math.min(delay, policy.maxDelayMs ?? 2_000) * (0.5 + Math.random() / 2);
      if (elapsed + wait > policy.budgetMs) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new SqlFailure(
          'UNAVAILABLE',
          `${database} is unavailable: ${reason}${policy.budgetMs > 0 ? ` (still failing after ${elapsed} ms)` : ''}`,
          { cause: error },
        );
      }
      await sleep(wait);
      delay *= 2;
    }
  }
}
