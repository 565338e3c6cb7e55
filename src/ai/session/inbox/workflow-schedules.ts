/**
 * Workflow schedules in the inbox's list (decision 221): under the workflow runs, with
 * the "all" and "running" filters, a table of the schedules — their timing, the next
 * tick, whether paused, the last run they started. Read through the structural
 * interface `InboxWorkflows` (`schedules()`, which `workflowRuns(store)` has).
 */
import { type Html, html } from './html.ts';
import type { PageContext, StatusFilter } from './pages.ts';
import { type InboxWorkflows, WORKFLOW_LIST_LIMIT, workflowUrl } from './workflows.ts';

/** A schedule as the inbox reads it (`WorkflowSchedule` of `fino:workflow`). */
export interface InboxWorkflowSchedule {
  id: string;
  workflowId: string;
  cron?: string;
  every?: number;
  timezone?: string;
  paused: boolean;
  nextTick?: string;
  lastTick?: string;
  lastRunId?: string;
  ticksStarted: number;
  ticksMissed: number;
}

const timing = (s: InboxWorkflowSchedule): string =>
  s.cron
    ? `cron ${s.cron}${s.timezone ? ` (${s.timezone})` : ''}`
    : `every ${(s.every ?? 0) / 60_000} min`;

/** The list's workflow section with the schedules' table after it (for "all" and "running"). */
export async function withSchedules(
  ctx: PageContext,
  workflows: InboxWorkflows,
  status: StatusFilter,
  section: { part: Html; count: number },
): Promise<{ part: Html; count: number }> {
  if (!workflows.schedules || (status !== 'all' && status !== 'running')) return section;
  const schedules = await workflows.schedules({ limit: WORKFLOW_LIST_LIMIT });
  if (schedules.length === 0) return section;
  const rows = schedules.map(
    (s) =>
      html`<tr data-schedule="${s.id}"><td>${s.id}</td><td>${s.workflowId}</td><td>${timing(s)}</td><td>${s.paused ? 'paused' : (s.nextTick ?? 'no more ticks')}</td><td>${s.lastRunId ? html`<a href="${workflowUrl(ctx, s.lastRunId)}">${s.lastTick}</a>` : 'none yet'}</td><td>${s.ticksStarted} started, ${s.ticksMissed} missed</td></tr>`,
  );
  return {
    part: html`${section.part}<h2>Workflow schedules</h2><table class="runs schedules"><thead><tr><th scope="col">Schedule</th><th scope="col">Workflow</th><th scope="col">When</th><th scope="col">Next tick</th><th scope="col">Last run</th><th scope="col">Ticks</th></tr></thead><tbody>${rows}</tbody></table>`,
    count: section.count + schedules.length,
  };
}
