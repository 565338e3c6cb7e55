/**
 * The approval inbox of `fino:ai/session`: a web page over a session's store (and,
 * through the small `InboxWorkflows` interface, over workflow runs). The room holds the
 * handler (`handler.ts`: options checked in `options.ts`, logins and tokens in
 * `access.ts`, `logins.ts` and `security.ts`), its routes (`router.ts` dispatches to
 * `run-list.ts`, `run-routes.ts`, `workflow-routes.ts`, the decision forms of
 * `decision-form.ts`, and the event stream of `events.ts`), the pages they render
 * (`pages.ts`, `workflows.ts`, `steps.ts`, escaped through `html.ts`, with `assets.ts`),
 * HTTP plumbing (`http.ts`) and the Node adapter (`serve.ts`).
 *
 * It may import the rest of `ai/session`, `ai/agent` and `ai/model` through their
 * `index.ts`, `fino:validate`, and `src/internal/`; never `fino:workflow`, which sits
 * above it (workflow runs come in through `InboxWorkflows`). The rest of `ai/session`
 * imports the inbox only through this file.
 *
 * @module
 */
export { inbox } from './handler.ts';
export { MAX_BODY_BYTES } from './http.ts';
export type { InboxOptions } from './options.ts';
export { type InboxServer, type ServeInboxOptions, serveInbox } from './serve.ts';
export type {
  InboxWorkflowEntry,
  InboxWorkflowPending,
  InboxWorkflowRun,
  InboxWorkflows,
} from './workflows.ts';
