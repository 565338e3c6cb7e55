/**
 * What every route of one inbox is handed: its session and workflow runs, where it is
 * mounted, its access rules and its store watcher (the event stream's source).
 */
import type { Session } from '../session.ts';
import type { InboxAccess } from './access.ts';
import type { Notice } from './decision-form.ts';
import type { StoreWatcher } from './events.ts';
import type { PageContext } from './pages.ts';
import type { InboxWorkflows } from './workflows.ts';

/** One inbox's parts, built once by `inbox()` and shared by its routes. */
export interface InboxContext {
  session: Session;
  workflows?: InboxWorkflows;
  /** The mount path without its trailing slash (`''` at the root). */
  base: string;
  access: InboxAccess;
  watcher: StoreWatcher;
}

/** A run's page (a session run's or a workflow run's), with a notice of what just happened. */
export type RunView = (
  inbox: InboxContext,
  ctx: PageContext,
  runId: string,
  notice?: Notice,
) => Promise<Response>;
