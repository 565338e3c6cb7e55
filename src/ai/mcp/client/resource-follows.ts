/**
 * The resources a client follows, in both eras (decision 211). On 2025 revisions each
 * followed URI is a `resources/subscribe` of the connection. The 2026-07-28 revision
 * removes that request: a client opens a `subscriptions/listen` stream naming the URIs
 * whose `notifications/resources/updated` it wants. Here one stream carries every
 * followed URI; following or leaving one opens the stream for the new set, then closes
 * the old one, so no update is missed in between.
 */
import type { McpSubscription } from '@modelcontextprotocol/client';
import type { LoggingClient } from './log-level.ts';

/** The most resources one client follows at once: a fino server's cap per connection. */
export const MAX_FOLLOWED_RESOURCES = 1000;

/** Hears that a followed resource changed. */
export type ResourceListener = (uri: string) => void;

/** The followed resources of one client and their listeners. */
export class ResourceFollows {
  readonly #sdk: LoggingClient;
  readonly #followers = new Map<string, Set<ResourceListener>>();
  #stream: McpSubscription | undefined;
  /** Changes to the stream, one at a time. */
  #changes: Promise<unknown> = Promise.resolve();

  constructor(sdk: LoggingClient) {
    this.#sdk = sdk;
  }

  /** Follows `uri` (connected already); returns the function that stops following it. */
  async follow(uri: string, listener: ResourceListener): Promise<() => Promise<void>> {
    const set = this.#followers.get(uri);
    if (set === undefined && this.#followers.size >= MAX_FOLLOWED_RESOURCES) {
      throw new RangeError(
        `mcpClient.subscribe: this client already follows ${MAX_FOLLOWED_RESOURCES} resources; unsubscribe from some before following "${uri}"`,
      );
    }
    if (set === undefined) {
      await this.#change(() => this.#started(uri));
      if (!this.#followers.has(uri)) this.#followers.set(uri, new Set());
    }
    const listeners = this.#followers.get(uri) as Set<ResourceListener>;
    listeners.add(listener);
    return async () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.#followers.get(uri) !== listeners) return;
      this.#followers.delete(uri);
      await this.#change(() => this.#stopped(uri));
    };
  }

  /** Tells `uri`'s listeners that it changed. */
  updated(uri: string): void {
    for (const listener of this.#followers.get(uri) ?? []) {
      try {
        listener(uri);
      } catch {
        // A listener's failure is not the connection's.
      }
    }
  }

  /** Forgets the stream (the connection closed). */
  clear(): void {
    this.#followers.clear();
    this.#stream = undefined;
  }

  #change(work: () => Promise<void>): Promise<void> {
    const done = this.#changes.then(work);
    this.#changes = done.catch(() => undefined);
    return done;
  }

  async #started(uri: string): Promise<void> {
    if (!this.#sdk.modern) {
      await this.#sdk.subscribeResource({ uri });
      return;
    }
    await this.#listen([...this.#followers.keys(), uri]);
  }

  async #stopped(uri: string): Promise<void> {
    if (!this.#sdk.modern) {
      await this.#sdk.unsubscribeResource({ uri });
      return;
    }
    await this.#listen([...this.#followers.keys()]);
  }

  /** Opens the stream for `uris` (none: no stream), then closes the previous one. */
  async #listen(uris: string[]): Promise<void> {
    const previous = this.#stream;
    this.#stream =
      uris.length === 0 ? undefined : await this.#sdk.listen({ resourceSubscriptions: uris });
    await previous?.close();
  }
}
