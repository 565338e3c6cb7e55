/**
 * Workflow runs in the inbox: the small interface through which the inbox reads and
 * decides them (`workflowRuns(store)` of `fino:workflow` implements it — the inbox never
 * imports `fino:workflow`, which sits above `fino:ai/session`), and their pages: pending
 * decisions, a runs table, and a run's history as a timeline.
 */
import type { Decision, PendingCall } from '../../agent/index.ts';
import { type Html, html } from './html.ts';
import {
  argsBlock,
  callSummary,
  decideForm,
  idPart,
  inboxUrl,
  jsonBlock,
  type PageContext,
  page,
  readableId,
  type StatusFilter,
  timeAgo,
} from './pages.ts';
import { auditTable, FINAL, noticePart } from './run-page.ts';
import type { InboxWorkflowSchedule } from './workflow-schedules.ts';
import { WORKFLOW_WORKER_HINT, workflowRunState } from './workflow-state.ts';

/** A workflow run as the inbox reads it (`WorkflowRun` of `fino:workflow`). */
export interface InboxWorkflowRun {
  runId: string;
  workflowId: string;
  status: string;
  input: unknown;
  output?: unknown;
  error?: { message: string; code?: string };
  waitingOn?: { timer?: string; signals: string[]; decisions: string[]; children?: string[] };
  pending?: InboxWorkflowPending[];
  audit?: Array<{
    at: string;
    action: string;
    decisionId?: string;
    toolName?: string;
    by?: string;
    note?: string;
  }>;
  cancelRequested?: boolean;
  /** The worker holding the run, while one does. */
  worker?: string;
  createdAt: string;
  updatedAt: string;
  /** Why part of the stored run cannot be shown (those fields are left out). */
  corrupt?: string;
}

/** An undecided pending decision of a workflow run: the pending call's fields at the top (decision 159). */
export interface InboxWorkflowPending extends PendingCall {
  runId: string;
  decisionId: string;
  /** @deprecated The pending call again, as `fino:workflow` showed it before decision 159; not read. */
  call?: PendingCall;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** One checkpoint of a run's history (`WorkflowHistoryEntry` of `fino:workflow`). */
export interface InboxWorkflowEntry {
  id: string;
  kind: string;
  state: 'done' | 'waiting';
  value?: unknown;
  error?: { message: string; code?: string };
  startedAt: string;
  endedAt?: string;
  dueAt?: string;
  signal?: string;
  timedOut?: boolean;
  attempts?: number;
}

/**
 * What the inbox needs of workflow runs; pass `workflowRuns(store)` from `fino:workflow`.
 * Refusals are errors with a `code` (`ALREADY_DECIDED`, `NOT_PENDING`, `NOT_FOUND`,
 * `INVALID_ARGUMENT`), as `WorkflowError` has.
 */
export interface InboxWorkflows {
  list(filter?: {
    status?: 'running' | 'waiting' | 'done' | 'error' | 'cancelled';
    limit?: number;
  }): Promise<InboxWorkflowRun[]>;
  get(runId: string): Promise<InboxWorkflowRun>;
  history(runId: string): Promise<InboxWorkflowEntry[]>;
  pending(): Promise<InboxWorkflowPending[]>;
  decide(
    ref: { runId: string; decisionId: string },
    decision: Decision,
    actor: { by?: string; note?: string },
  ): Promise<unknown>;
  /** The store's schedules, by id (shown under the runs; `workflowRuns(store)` has it). */
  schedules?(filter?: { limit?: number }): Promise<InboxWorkflowSchedule[]>;
}

/** How many workflow runs the inbox lists at most. */
export const WORKFLOW_LIST_LIMIT = 200;

/** The address of a workflow run's page. */
export const workflowUrl = (ctx: PageContext, runId: string) => inboxUrl(ctx, 'workflows', runId);
const decisionUrl = (ctx: PageContext, runId: string, decisionId: string) =>
  inboxUrl(ctx, 'workflows', runId, 'decisions', decisionId);

/** One pending decision of a workflow run, with its form. */
export function workflowPendingCard(
  ctx: PageContext,
  pending: InboxWorkflowPending,
  workflowId: string | undefined,
): Html {
  const call = pending;
  const { asks, declared } = callSummary(call);
  return html`<article class="card pending workflow" data-workflow-run="${pending.runId}" data-decision="${pending.decisionId}">
<h3><span class="tool" title="decision ${pending.decisionId}">${call.toolName}</span> ${asks}</h3>
<ul class="meta"><li>workflow ${workflowId ?? ''} run <a href="${workflowUrl(ctx, pending.runId)}">${pending.runId}</a></li>
${declared}<li>waiting since ${timeAgo(ctx, new Date(pending.createdAt).toISOString())}</li></ul>
${argsBlock(call.args)}
${call.payload === undefined ? '' : jsonBlock(call.payload, 'Payload')}
${decideForm(ctx, pending.runId, call, decisionUrl(ctx, pending.runId, pending.decisionId))}</article>`;
}

/** The workflow statuses a status filter of the inbox shows. */
export function workflowStatuses(status: StatusFilter): string[] | 'all' {
  if (status === 'all') return 'all';
  if (status === 'running') return ['running', 'waiting'];
  if (status === 'ready' || status === 'suspended') return [];
  return [status];
}

/** The workflow part of the inbox's list: pending decisions, or a table of runs. */
export async function workflowSection(
  ctx: PageContext,
  workflows: InboxWorkflows,
  tool: string,
  status: StatusFilter,
): Promise<{ part: Html; count: number }> {
  if (status === 'suspended') {
    const pending = (await workflows.pending())
      .filter((p) => tool === '' || p.toolName === tool)
      .reverse()
      .slice(0, WORKFLOW_LIST_LIMIT);
    const ids = new Map<string, string>();
    for (const p of pending) {
      if (!ids.has(p.runId)) ids.set(p.runId, (await workflows.get(p.runId)).workflowId);
    }
    if (pending.length === 0) return { part: html``, count: 0 };
    return {
      part: html`<h2>Workflow decisions</h2>${pending.map((p) => workflowPendingCard(ctx, p, ids.get(p.runId)))}`,
      count: pending.length,
    };
  }
  const wanted = workflowStatuses(status);
  if (wanted !== 'all' && wanted.length === 0) return { part: html``, count: 0 };
  const listed =
    wanted !== 'all' && wanted.length === 1
      ? await workflows.list({ status: wanted[0] as 'done' })
      : await workflows.list();
  const runs = listed
    .filter((run) => wanted === 'all' || wanted.includes(run.status))
    .reverse()
    .slice(0, WORKFLOW_LIST_LIMIT);
  if (runs.length === 0) return { part: html``, count: 0 };
  const undecided = runs.some((run) => run.status === 'waiting')
    ? new Set((await workflows.pending()).map((p) => p.decisionId))
    : new Set<string>();
  return {
    part: html`<h2>Workflow runs</h2><table class="runs workflows"><thead><tr><th scope="col">Run</th><th scope="col">Workflow</th><th scope="col">State</th><th scope="col">Waits on</th><th scope="col">Updated</th></tr></thead><tbody>${runs.map(
      (run) => {
        const state = workflowRunState(run, undecided);
        return html`<tr><td><a href="${workflowUrl(ctx, run.runId)}">${run.runId}</a></td><td>${run.workflowId}</td><td>${state.label}${run.corrupt ? ' (unreadable)' : ''}</td><td>${joined(state.waits)}</td><td>${timeAgo(ctx, run.updatedAt)}</td></tr>`;
      },
    )}</tbody></table>`,
    count: runs.length,
  };
}

/** Parts separated by commas. */
const joined = (parts: readonly Html[]): Html[] =>
  parts.flatMap((p, i) => (i === 0 ? [p] : [html`, `, p]));

/** A duration in words: "12 ms", "3.4 s", "5 min", "2.5 h", "3 days". */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${Math.round(ms / 86_400_000)} days`;
}

const KIND_LABELS: Record<string, string> = {
  step: 'step',
  call: 'tool call',
  sleep: 'sleep',
  signal: 'signal wait',
  decision: 'decision',
  agent: 'agent',
  child: 'child workflow',
  emit: 'event',
  now: 'clock',
  random: 'random',
  uuid: 'uuid',
  version: 'version',
};

/** One checkpoint as a line of the timeline. */
function timelineRow(entry: InboxWorkflowEntry, ctx: PageContext): Html {
  const started = Date.parse(entry.startedAt);
  const took =
    entry.endedAt === undefined
      ? entry.dueAt === undefined
        ? 'in progress'
        : `waiting until ${entry.dueAt}`
      : duration(Date.parse(entry.endedAt) - started);
  const notes = [
    entry.signal === undefined ? '' : `signal ${entry.signal}`,
    entry.timedOut ? 'timed out' : '',
    entry.attempts === undefined || entry.attempts <= 1 ? '' : `${entry.attempts} attempts`,
  ].filter((n) => n !== '');
  const detail = entry.error
    ? html`<pre class="error">${entry.error.code ? `${entry.error.code}: ` : ''}${entry.error.message}</pre>`
    : entry.value === undefined || entry.state !== 'done'
      ? '' // a waiting entry's value is the engine's bookkeeping, not a result
      : jsonBlock(entry.value, 'Result');
  return html`<tr class="entry ${entry.kind} ${entry.state}"><td>${KIND_LABELS[entry.kind] ?? entry.kind}</td><td><code>${idPart(readableId(entry.id), entry.id)}</code></td><td>${entry.state}${notes.length ? ` (${notes.join(', ')})` : ''}</td><td>${timeAgo(ctx, entry.startedAt)}</td><td class="duration">${took}</td><td>${detail}</td></tr>`;
}

/** A workflow run: status, what it waits on, pending decisions, timeline and audit trail. */
export function workflowRunPage(
  ctx: PageContext,
  run: InboxWorkflowRun,
  history: readonly InboxWorkflowEntry[],
  notice?: { text: string; warn?: boolean },
): Html {
  const outcome =
    run.status === 'done'
      ? html`<h2>Output</h2>${jsonBlock(run.output, 'Output')}`
      : run.status === 'error' || (run.status === 'cancelled' && run.error)
        ? html`<h2>Error</h2><pre>${run.error?.code ? `${run.error.code}: ` : ''}${run.error?.message ?? ''}</pre>`
        : '';
  const pending = run.pending ?? [];
  const pendingPart =
    pending.length === 0
      ? ''
      : html`<h2>Pending decisions</h2>${pending.map((p) => workflowPendingCard(ctx, p, run.workflowId))}`;
  const timeline =
    history.length === 0
      ? html`<p class="empty">Nothing recorded yet.</p>`
      : html`<table class="timeline"><thead><tr><th scope="col">What</th><th scope="col">Id</th><th scope="col">State</th><th scope="col">Started</th><th scope="col">Took</th><th scope="col">Result</th></tr></thead><tbody>${history.map(
          (entry) => timelineRow(entry, ctx),
        )}</tbody></table>`;
  const audit = (run.audit ?? []).map((a) => ({ ...a, id: a.decisionId }));
  const state = workflowRunState(run, new Set(pending.map((p) => p.decisionId)));
  return page(
    ctx,
    `Workflow run ${run.runId}`,
    html`${noticePart(notice)}
<div id="run-body" data-src="${workflowUrl(ctx, run.runId)}" data-events="${ctx.base}/events" data-final="${FINAL.has(run.status) ? 'true' : 'false'}">
<section class="card"><h2>Workflow <span class="workflow-id">${run.workflowId}</span>: <span id="run-status" data-status="${run.status}">${state.label}</span></h2>
<ul class="meta"><li>id ${run.runId}</li><li>status ${run.status}</li><li>started ${timeAgo(ctx, run.createdAt)}</li><li>updated ${timeAgo(ctx, run.updatedAt)}</li>
${run.corrupt ? html`<li class="error">unreadable: ${run.corrupt}</li>` : ''}${state.waits.length > 0 ? html`<li>waits on ${joined(state.waits)}</li>` : ''}${run.cancelRequested ? html`<li>cancellation requested</li>` : ''}</ul>
${state.needsWorker ? html`<p class="state-hint" id="worker-hint">${WORKFLOW_WORKER_HINT}</p>` : ''}
<details><summary>Input</summary>${jsonBlock(run.input, 'Input')}</details></section>
${outcome}${pendingPart}<h2>Timeline</h2>${timeline}<h2>Audit trail</h2>${auditTable(audit)}</div>`,
  );
}
