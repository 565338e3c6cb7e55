/**
 * `ctx.progress()` as MCP `notifications/progress`, for a call whose client sent a
 * progress token: at most one notification per 100 ms, each with a larger `progress`
 * than the last (MCP requires it), and the latest update always sent before the result.
 * Decision 094.
 */
import type { ProgressNotification, ServerContext } from '@modelcontextprotocol/server';
import type { Progress } from '../../../task/index.ts';

/** The shortest time between two progress notifications of one call. */
const MIN_INTERVAL_MS = 100;

/** Receives one call's progress; `flush()` sends what is held back, before the result. */
export interface ProgressNotifier {
  report(update: Progress): void;
  flush(): Promise<void>;
}

/**
 * A notifier for the request in `ctx`, or `undefined` when its client asked for none.
 * Notifications go out with `send`: by default on the request's own stream; a task's go
 * out on the connection (its request has been answered), for the task's lifetime.
 */
export function progressNotifier(
  ctx: ServerContext,
  send: (notification: ProgressNotification) => Promise<void> = (n) => ctx.mcpReq.notify(n),
): ProgressNotifier | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  let pending: Progress | undefined;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> = Promise.resolve();

  const sendPending = () => {
    if (pending === undefined) return;
    const params = { progressToken: token, ...pending };
    pending = undefined;
    lastSentAt = Date.now();
    sending = send({ method: 'notifications/progress', params }).catch(() => undefined); // the client left: nothing to tell
  };

  return {
    report(update) {
      if (update.progress <= highest) return;
      highest = update.progress;
      pending = update;
      const wait = lastSentAt + MIN_INTERVAL_MS - Date.now();
      if (wait <= 0) sendPending();
      else
        timer ??= setTimeout(() => {
          timer = undefined;
          sendPending();
        }, wait);
    },
    async flush() {
      clearTimeout(timer);
      timer = undefined;
      sendPending();
      await sending;
    },
  };
}
