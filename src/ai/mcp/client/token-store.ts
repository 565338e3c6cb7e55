/**
 * Where `mcpClient()` keeps what OAuth gave it — tokens, the registered client, the PKCE
 * verifier, a login's discovery state — one JSON record per server, and the in-memory store. The file store is
 * `file-token-store.ts`. Decisions 123 and 182.
 */

/** What is kept for one server (opaque to the store). */
export type OAuthRecord = Record<string, unknown>;

/** A pluggable store of OAuth records, by server URL. */
export interface TokenStore {
  load(server: string): Promise<OAuthRecord | undefined>;
  save(server: string, record: OAuthRecord): Promise<void>;
  /**
   * Runs `work` while no other user of the same storage runs its own `exclusive` work
   * for `server` (optional). The client renews a server's tokens inside it, re-reading
   * the record first, so clients sharing a store never spend one refresh token twice.
   * Without it, renewals are single-flight per client only.
   */
  exclusive?<T>(server: string, work: () => Promise<T>): Promise<T>;
}

/**
 * Keeps records in memory, for this process only.
 *
 * @example
 * ```ts
 * import { memoryTokenStore } from 'fino:ai/mcp';
 *
 * const store = memoryTokenStore();
 * await store.save('http://127.0.0.1:3000/mcp', { tokens: { access_token: 't', token_type: 'Bearer' } });
 * console.log(await store.load('http://127.0.0.1:3000/mcp'));
 * ```
 */
export function memoryTokenStore(): TokenStore {
  const records = new Map<string, OAuthRecord>();
  const queue = serialQueue();
  return {
    load: async (server) => records.get(server),
    save: async (server, record) => {
      records.set(server, record);
    },
    exclusive: (_server, work) => queue(work),
  };
}

/** Runs the works given to it one after another, in order (a failure does not stop the queue). */
export function serialQueue(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
