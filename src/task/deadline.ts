/**
 * Runs an executor under a deadline, with a child signal linked to the caller's.
 */
import { TaskTimeoutError } from './errors.ts';

/**
 * Calls `work` with a child signal that aborts when `parent` does, or with a
 * {@link TaskTimeoutError} after `timeoutMs`. Settles at the deadline even when `work`
 * ignores its signal; a rejection arriving later is absorbed. The timer and the
 * listener on `parent` are removed when it settles. It cannot stop `work`: code that
 * ignores the signal keeps running after the deadline, and synchronous code blocks the
 * timer until it returns (decision 060).
 */
export async function withDeadline<T>(
  taskName: string,
  timeoutMs: number,
  parent: AbortSignal,
  work: (signal: AbortSignal) => T | Promise<T>,
): Promise<T> {
  const child = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onParentAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const stop = (reason: unknown): void => {
      child.abort(reason);
      reject(reason);
    };
    if (parent.aborted) return stop(parent.reason);
    onParentAbort = () => stop(parent.reason);
    parent.addEventListener('abort', onParentAbort, { once: true });
    timer = setTimeout(() => stop(new TaskTimeoutError(taskName, timeoutMs)), timeoutMs);
  });
  const running = Promise.resolve().then(() => work(child.signal));
  running.catch(() => {});
  stopped.catch(() => {});
  try {
    return await Promise.race([running, stopped]);
  } catch (error) {
    // An executor that rethrows its own abort error after the deadline still timed out.
    throw child.signal.aborted ? child.signal.reason : error;
  } finally {
    clearTimeout(timer);
    if (onParentAbort) parent.removeEventListener('abort', onParentAbort);
  }
}
