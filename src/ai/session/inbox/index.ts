/**
 * The approval inbox of `fino:ai/session`: a web page over a session's store.
 *
 * @module
 */
export { type InboxOptions, inbox, MAX_BODY_BYTES } from './handler.ts';
export { type InboxServer, type ServeInboxOptions, serveInbox } from './serve.ts';
export type {
  InboxWorkflowEntry,
  InboxWorkflowPending,
  InboxWorkflowRun,
  InboxWorkflows,
} from './workflows.ts';
