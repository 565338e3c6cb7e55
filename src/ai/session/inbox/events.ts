/**
 * Server-sent events for the inbox (GET /events): one poller per handler reads the store about once
 * a second while somebody listens, and tells every listener "changed" when the list of
 * runs (ids, statuses, update times) differs from the last look.
 */
import type { Session } from '../session.ts';
import { HttpError, respond } from './http.ts';
import type { InboxWorkflows } from './workflows.ts';

/** The most event streams open at once; more get 503 (each holds a connection). */
export const MAX_LISTENERS = 100;
/** A comment line this often keeps proxies from closing an idle stream. */
const KEEPALIVE_POLLS = 15;

type Listener = (chunk: string) => void;

/** What watches a store for the inbox's event streams; see {@link storeWatcher}. */
export type StoreWatcher = ReturnType<typeof storeWatcher>;

/** Watches `session` (and workflow runs, when given) for changes while listeners are attached. */
export function storeWatcher(session: Session, pollMs: number, workflows?: InboxWorkflows) {
  const listeners = new Set<Listener>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let last: string | undefined;
  let polls = 0;
  let busy = false;

  const fingerprint = async () =>
    [...(await session.list()), ...((await workflows?.list()) ?? [])]
      .map((r) => `${r.runId}\u0000${r.status}\u0000${'updatedAt' in r ? r.updatedAt : ''}`)
      .join('\u0001');

  const poll = async () => {
    if (busy) return;
    busy = true;
    try {
      const now = await fingerprint();
      const changed = last !== undefined && now !== last;
      last = now;
      polls++;
      const chunk = changed
        ? `event: changed\ndata: ${Date.now()}\n\n`
        : polls % KEEPALIVE_POLLS === 0
          ? ': keep-alive\n\n'
          : undefined;
      if (chunk) for (const listener of listeners) listener(chunk);
    } catch {
      // the store is unavailable for now: try again at the next poll
    } finally {
      busy = false;
    }
  };

  return {
    /** Adds a listener; returns how to remove it, or `undefined` when too many listen. */
    subscribe(listener: Listener): (() => void) | undefined {
      if (listeners.size >= MAX_LISTENERS) return undefined;
      listeners.add(listener);
      if (!timer) {
        last = undefined;
        void poll();
        timer = setInterval(poll, pollMs);
        timer.unref?.();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
  };
}

/** An event-stream body fed by `watcher` until the client goes away. */
export function eventStream(
  watcher: StoreWatcher,
  signal: AbortSignal,
): ReadableStream<Uint8Array> | undefined {
  const encoder = new TextEncoder();
  let unsubscribe: (() => void) | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode('retry: 2000\n\n'));
    },
    cancel() {
      unsubscribe?.();
    },
  });
  unsubscribe = watcher.subscribe((chunk) => {
    try {
      controller.enqueue(encoder.encode(chunk));
    } catch {
      unsubscribe?.();
    }
  });
  if (!unsubscribe) return undefined;
  const stop = () => {
    unsubscribe?.();
    try {
      controller.close();
    } catch {
      // already closed or cancelled
    }
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  return stream;
}

/** GET /events: the stream of "changed" events, or a 503 when too many listen. */
export function eventsResponse(watcher: StoreWatcher, request: Request): Response {
  const stream = eventStream(watcher, request.signal);
  if (!stream) throw new HttpError(503, 'Too many live connections; reload later.');
  return respond(stream, { type: 'text/event-stream; charset=utf-8' });
}
