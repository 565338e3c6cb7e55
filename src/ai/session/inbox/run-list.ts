/**
 * GET / and GET /fragment: the inbox's list — the session's runs with a status (pending
 * calls by default), filtered by tool, and the workflow runs' part of the same list.
 */
import type { InboxContext } from './context.ts';
import { HttpError, respond } from './http.ts';
import {
  inboxPage,
  listFragment,
  type PageContext,
  STATUS_FILTERS,
  type StatusFilter,
} from './pages.ts';
import { withSchedules } from './workflow-schedules.ts';
import { workflowSection } from './workflows.ts';

/** The whole page, or only the list (`fragmentOnly`, which the page's script reloads). */
export async function runListView(
  inbox: InboxContext,
  ctx: PageContext,
  url: URL,
  fragmentOnly: boolean,
): Promise<Response> {
  const { session, workflows } = inbox;
  const tool = (url.searchParams.get('tool') ?? '').trim().slice(0, 200);
  const statusParam = url.searchParams.get('status') ?? 'suspended';
  if (!STATUS_FILTERS.includes(statusParam as StatusFilter)) {
    throw new HttpError(
      400,
      `Expected status to be one of ${STATUS_FILTERS.join(', ')}, received "${statusParam.slice(0, 40)}".`,
    );
  }
  const status = statusParam as StatusFilter;
  const runs = await session.list(status === 'all' ? {} : { status });
  const extra =
    workflows &&
    (await withSchedules(
      ctx,
      workflows,
      status,
      await workflowSection(ctx, workflows, tool, status),
    ));
  return respond(
    fragmentOnly
      ? listFragment(ctx, runs, tool, status, extra)
      : inboxPage(ctx, runs, tool, status, extra),
  );
}
