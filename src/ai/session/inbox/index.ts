/**
 * The approval inbox of `fino:ai/session`: a web page over a session's store (and,
 * through the small `InboxWorkflows` interface, over workflow runs). The room holds:
 *
 * - the handler, `handler.ts`, built from its options (`options.ts`) and access rules
 *   (`access.ts`: tokens, logins in `logins.ts`, the host's identity in `identity.ts`,
 *   cookies and CSRF in `security.ts`);
 * - its routes: `router.ts` dispatches to `run-list.ts` (the list), `run-routes.ts` (a
 *   session run), `workflow-routes.ts` (a workflow run) and `events.ts` (the event
 *   stream); both decide forms read `decision-form.ts`; `http.ts` is the plumbing;
 * - the pages they render: `pages.ts` (layout, list, shared blocks), `run-page.ts`,
 *   `workflows.ts`, `steps.ts`, all escaped through `html.ts`, styled by `assets.ts`;
 * - the Node adapter, `serve.ts`.
 *
 * It may import the rest of `ai/session` (its files, not this folder's parent index),
 * other modules through their `index.ts` (`ai/agent`, `ai/model`, `fino:task`,
 * `fino:validate`) and `src/internal/`; never `fino:workflow`, which shares its floor
 * (workflow runs come in through `InboxWorkflows`). The rest of `ai/session` imports the
 * inbox only through this file.
 *
 * @module
 */
export { inbox } from './handler.ts';
export { MAX_BODY_BYTES } from './http.ts';
export { headerIdentity, type IdentifyRequest, type InboxIdentity } from './identity.ts';
export type { InboxOptions } from './options.ts';
export { type InboxServer, type ServeInboxOptions, serveInbox } from './serve.ts';
export type { InboxWorkflowSchedule } from './workflow-schedules.ts';
export type {
  InboxWorkflowEntry,
  InboxWorkflowPending,
  InboxWorkflowRun,
  InboxWorkflows,
} from './workflows.ts';
