/**
 * The connections of one `mcpServer()` that stay open (stdio, `connect()`, 2025-era
 * HTTP sessions) and the 2026-era HTTP handlers' `subscriptions/listen` streams: who
 * hears that the tool, resource or prompt lists changed.
 */
import type { Server } from '@modelcontextprotocol/server';
import { isModernRevision } from '../protocol/index.ts';

/**
 * A 2026-era HTTP handler, whose `subscriptions/listen` streams hear list changes and
 * resource updates (the SDK's `ServerNotifier`).
 */
export interface ChangeNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/** The open connections and the handlers to tell when a list changes. */
export class Connections {
  readonly #servers = new Set<Server>();
  /** The modern HTTP handlers, whose `subscriptions/listen` streams hear list changes. */
  readonly notifiers = new Set<ChangeNotifier>();

  /** Keeps `server` until it closes (then `closed` runs for it); returns it. */
  add(server: Server, closed: (server: Server) => void): Server {
    this.#servers.add(server);
    const onclose = server.onclose;
    server.onclose = () => {
      this.#servers.delete(server);
      closed(server);
      onclose?.();
    };
    return server;
  }

  has(server: Server): boolean {
    return this.#servers.has(server);
  }

  /** Sends a list-changed notification on every open connection; drops those that fail. */
  send(notify: (server: Server) => Promise<void>): void {
    for (const server of this.#servers) notify(server).catch(() => this.#servers.delete(server));
  }

  /** Tells every connection and every modern handler that the tool list changed. */
  toolsChanged(): void {
    this.send((server) => server.sendToolListChanged());
    for (const notifier of this.notifiers) notifier.toolsChanged();
  }

  /** Tells every connection and every modern handler that `list` changed. */
  changed(list: ServedList): void {
    if (list === 'tools') this.toolsChanged();
    else if (list === 'resources') {
      this.send((server) => server.sendResourceListChanged());
      for (const notifier of this.notifiers) notifier.resourcesChanged();
    } else {
      this.send((server) => server.sendPromptListChanged());
      for (const notifier of this.notifiers) notifier.promptsChanged();
    }
  }

  /**
   * Tells the 2026-era listeners that `uri` changed: every modern handler, and every
   * open connection on a 2026 revision (its `subscriptions/listen` streams name the URIs
   * they follow; the SDK delivers to those only). 2025-era connections hear it through
   * their `resources/subscribe` (the catalog's subscriptions).
   */
  resourceUpdated(uri: string): void {
    for (const notifier of this.notifiers) notifier.resourceUpdated(uri);
    for (const server of this.#servers) {
      if (!isModernRevision(server.getNegotiatedProtocolVersion())) continue;
      server.sendResourceUpdated({ uri }).catch(() => this.#servers.delete(server));
    }
  }

  /** `add`, announced: runs it, then tells every connection that `list` changed. */
  adding<T>(list: ServedList, add: (item: T) => void): (item: T) => void {
    return (item) => {
      add(item);
      this.changed(list);
    };
  }

  /**
   * `remove`, announced: runs it and, when it removed something, tells every connection
   * that `list` changed; returns whether it removed something.
   */
  removing<K>(list: ServedList, remove: (key: K) => boolean): (key: K) => boolean {
    return (key) => {
      if (!remove(key)) return false;
      this.changed(list);
      return true;
    };
  }
}

/** The lists a server serves whose changes clients hear of. */
export type ServedList = 'tools' | 'resources' | 'prompts';
