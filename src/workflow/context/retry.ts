/**
 * Retries of a step: how many attempts, and how long to wait between them (exponential
 * backoff with a cap). Checked once, when the step is called.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { checkDuration } from '../../internal/duration.ts';
import { isNonRetryable, WorkflowError } from '../errors.ts';

/** How a failing step is retried. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 1: no retry; at most 1 000). */
  maxAttempts?: number;
  /** Wait before the second attempt, in ms (default 1 000). */
  initialDelayMs?: number;
  /** Each further wait is the previous one times this (default 2). */
  backoff?: number;
  /** The longest wait, in ms (default 60 000). */
  maxDelayMs?: number;
}

/** A policy with every field decided. */
export type Retry = Required<RetryPolicy>;

const MAX_ATTEMPTS = 1_000;

/** The policy `policy` describes, with defaults; `INVALID_ARGUMENT` naming the step for a bad field. */
export function retryPolicy(policy: RetryPolicy | undefined, where: string): Retry {
  const attempts = policy?.maxAttempts ?? 1;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > MAX_ATTEMPTS) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `${where}: retry.maxAttempts: expected a whole number from 1 to ${MAX_ATTEMPTS}, received ${String(attempts)}`,
    );
  }
  const backoff = policy?.backoff ?? 2;
  if (typeof backoff !== 'number' || !(backoff >= 1 && backoff <= 100)) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `${where}: retry.backoff: expected a number from 1 to 100, received ${String(backoff)}`,
    );
  }
  return {
    maxAttempts: attempts,
    backoff,
    initialDelayMs: checkDuration(
      `${where}: retry.initialDelayMs`,
      policy?.initialDelayMs ?? 1_000,
      'nonNegative',
    ),
    maxDelayMs: checkDuration(
      `${where}: retry.maxDelayMs`,
      policy?.maxDelayMs ?? 60_000,
      'nonNegative',
    ),
  };
}

/** The wait before attempt `attempt + 1`, after `attempt` failures. */
export const retryDelay = (retry: Retry, attempt: number): number =>
  Math.min(retry.maxDelayMs, retry.initialDelayMs * retry.backoff ** (attempt - 1));

/**
 * After attempt `attempt` threw `error`: waits the policy's delay and answers true when it
 * is to be tried again (attempts are left, the error is no `NonRetryableError` and the
 * worker is not stopping); answers false at once when it is the last.
 */
export async function retriesAfter(
  retry: Retry,
  attempt: number,
  error: unknown,
  stopping: boolean,
): Promise<boolean> {
  if (attempt >= retry.maxAttempts || isNonRetryable(error) || stopping) return false;
  await delay(retryDelay(retry, attempt));
  return true;
}
