/**
 * A session run's page (status, usage, pending calls, transcript, thread, audit trail,
 * steps), and what a workflow run's page shares with it: the notice of what just
 * happened, the audit table, the statuses after which the page stops following the run.
 */
import { describeUsage } from '../../model/index.ts';
import type { RunThread } from '../run-thread.ts';
import type { AuditEntry, SessionRun } from '../types.ts';
import { type Html, html } from './html.ts';
import {
  idPart,
  messageList,
  type PageContext,
  page,
  pendingCard,
  runUrl,
  timeAgo,
} from './pages.ts';
import { stepsSection } from './steps.ts';

/** What a ready run's page says: a decision was recorded, and only a worker goes on. */
export const SESSION_WORKER_HINT =
  'Nothing happens until a worker runs: a process with this session and its agent calling drain() (or an inbox started with --agent) carries the run on.';

/** The statuses after which a run's page stops following the run. */
export const FINAL = new Set(['done', 'error', 'cancelled']);

/** The notice at the top of a page: what just happened, or (`warn`) what did not. */
export const noticePart = (notice: { text: string; warn?: boolean } | undefined): Html | '' =>
  notice
    ? html`<p class="notice${notice.warn ? ' warn' : ''}" role="status">${notice.text}</p>`
    : '';

/** One line of an audit trail as a page shows it; `id` names the call or decision. */
export interface AuditRow {
  at: string;
  action: string;
  toolName?: string;
  id?: string;
  by?: string;
  note?: string;
}

/**
 * A run's audit trail as a table, or "No decisions yet." Each line names the tool, the
 * call's or decision's id on hover.
 */
export function auditTable(rows: readonly AuditRow[]): Html {
  if (rows.length === 0) return html`<p class="empty">No decisions yet.</p>`;
  return html`<table class="audit"><thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Tool</th><th scope="col">Who</th><th scope="col">Note</th></tr></thead><tbody>${rows.map(
    (a) =>
      html`<tr><td><time datetime="${a.at}">${a.at}</time></td><td>${a.action}</td><td>${idPart(a.toolName ?? a.id ?? '', a.id)}</td><td>${a.by ?? ''}</td><td>${a.note ?? ''}</td></tr>`,
  )}</tbody></table>`;
}

const auditAction = (a: AuditEntry) =>
  ({ approve: 'approved', reject: 'rejected', resume: 'answered', cancel: 'cancelled' })[
    a.action
  ] ?? a.action;

/**
 * A run: status, usage, pending calls, transcript, its thread (when it has one) and audit
 * trail; `notice` reports a decision.
 */
export function runPage(
  ctx: PageContext,
  run: SessionRun,
  notice?: { text: string; warn?: boolean },
  thread?: RunThread,
): Html {
  const usage = run.state?.usage;
  const outcome =
    run.status === 'done'
      ? html`<h2>Answer</h2><pre>${run.text}</pre>`
      : run.status === 'error'
        ? html`<h2>Error${run.code === undefined ? '' : html` <code>${run.code}</code>`}</h2><pre>${run.error}</pre>`
        : '';
  const pending =
    run.status === 'suspended'
      ? html`<h2>Pending calls</h2>${run.pending.map((call) => pendingCard(ctx, run, call, false))}`
      : '';
  const audit = (run.audit ?? []).map((a) => ({ ...a, action: auditAction(a), id: a.toolCallId }));
  return page(
    ctx,
    `Run ${run.runId}`,
    html`${noticePart(notice)}
<div id="run-body" data-src="${runUrl(ctx, run.runId)}" data-events="${ctx.base}/events" data-final="${FINAL.has(run.status) ? 'true' : 'false'}">
<section class="card"><h2>Run <span id="run-status">${run.status}</span></h2>
<ul class="meta"><li>id ${run.runId}</li>${run.threadId === undefined ? '' : html`<li>thread ${run.threadId}</li>`}
<li>started ${timeAgo(ctx, run.createdAt)}</li><li>updated ${timeAgo(ctx, run.updatedAt)}</li>
${usage ? html`<li>usage ${describeUsage(usage)}</li>` : ''}
${run.status === 'running' ? html`<li>worker ${run.worker} until ${run.leaseExpiresAt}</li>` : ''}
${run.status === 'running' && run.progress ? html`<li>progress ${run.progress.progress}${run.progress.total === undefined ? '' : `/${run.progress.total}`} in ${run.progress.toolName}${run.progress.message === undefined ? '' : `: ${run.progress.message}`} at <time datetime="${run.progress.at}">${run.progress.at}</time></li>` : ''}</ul>
${run.status === 'ready' ? html`<p class="state-hint" id="worker-hint">${SESSION_WORKER_HINT}</p>` : ''}</section>
${outcome}${pending}<h2>Transcript</h2>${messageList(run.state?.messages ?? [])}${thread ? threadSection(thread) : ''}<h2>Audit trail</h2>${auditTable(audit)}${stepsSection(run)}</div>`,
  );
}

/**
 * The run's thread as stored (its newest messages, newest last, long ones folded), with
 * how many earlier ones there are, its summary and its runs' usage; or why it cannot be read.
 */
function threadSection(thread: RunThread): Html {
  if ('error' in thread) {
    return html`<h2>Thread ${thread.threadId}</h2><p class="notice warn">${thread.error}</p>`;
  }
  const earlier = thread.messages[0]?.position ?? thread.length;
  const { usage, summary } = thread;
  return html`<h2>Thread ${thread.threadId}</h2>
<ul class="meta"><li>${thread.length} messages${earlier > 0 ? `, the last ${thread.length - earlier} shown` : ''}</li>
<li>tokens of its runs ${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.totalTokens} total</li>
${thread.activeRunId === undefined ? '' : html`<li>active run ${thread.activeRunId}</li>`}</ul>
${summary ? html`<details><summary>Summary of the first ${summary.through} messages</summary><pre>${summary.text}</pre></details>` : ''}${messageList(thread.messages.map((m) => m.message))}`;
}
