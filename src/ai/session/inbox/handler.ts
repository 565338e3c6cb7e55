/**
 * The approval inbox as a web-standard request handler: `(request) => Promise<Response>`,
 * built from its checked options, access rules, store watcher and routes.
 */
import { inboxAccess } from './access.ts';
import type { InboxContext } from './context.ts';
import { storeWatcher } from './events.ts';
import { checkOptions, type InboxOptions } from './options.ts';
import { answer } from './router.ts';

/**
 * The approval inbox as a web-standard request handler, `(request: Request) =>
 * Promise<Response>`, to mount in any server that speaks `Request`/`Response` (Node
 * through `serveInbox`, Hono, Deno, Bun, …). It lists every pending approval and
 * suspension of the session's store, newest first, updates live (server-sent events),
 * and decides calls through the session (`approve`, `reject`, `resume`), exactly once:
 * the loser of a race is told who decided and when. Pages are server-rendered with
 * every stored string escaped, under a strict Content-Security-Policy; every POST must
 * come from the handler's own origin and carry the form's CSRF token. Put it behind
 * your own authentication (and pass `by`), or set `token` — or `tokens`, one per
 * approver, to record who decided.
 *
 * @example
 * ```ts
 * import { inbox, memoryStore, session } from 'fino:ai/session';
 *
 * const handle = inbox({ session: session({ store: memoryStore() }), token: 'secret-token', basePath: '/inbox' });
 * const response = await handle(new Request('http://127.0.0.1:8080/inbox/?token=secret-token'));
 * console.log(response.status, response.headers.get('location')); // 303 /inbox/
 * ```
 */
export function inbox(options: InboxOptions): (request: Request) => Promise<Response> {
  const checked = checkOptions(options);
  const { session, workflows, base, pollMs } = checked;
  const context: InboxContext = {
    session,
    workflows,
    base,
    access: inboxAccess(options, checked),
    watcher: storeWatcher(session, pollMs, workflows),
  };
  const onError = options.onError ?? console.error;
  return (request) => answer(context, request, onError);
}
