/**
 * Notifications inside one process, for databases that have none of their own (SQLite,
 * the memory store): a store's writes notify its database's channel here, and listeners
 * of the same database in this process hear them. Other processes do not (they poll).
 */

/** A listener: called with the payload, or none when it only says "look again". */
export type NotifyListener = (payload?: string) => void;

const channels = new Map<string, Set<NotifyListener>>();

/** Hears `key`'s notifications in this process until `close()`. */
export function localListen(key: string, onNotify: NotifyListener): { close(): Promise<void> } {
  const listeners = channels.get(key) ?? new Set<NotifyListener>();
  channels.set(key, listeners);
  const listener: NotifyListener = (payload) => onNotify(payload);
  listeners.add(listener);
  return {
    async close() {
      listeners.delete(listener);
      if (listeners.size === 0 && channels.get(key) === listeners) channels.delete(key);
    },
  };
}

/** Tells this process's listeners of `key`, on a later tick; a listener that throws is ignored. */
export function localNotify(key: string, payload?: string): void {
  const listeners = channels.get(key);
  if (!listeners) return;
  for (const listener of [...listeners]) {
    queueMicrotask(() => {
      try {
        listener(payload);
      } catch {
        // a listener's failure is its own; the writer's operation succeeded
      }
    });
  }
}
