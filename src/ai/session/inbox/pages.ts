/**
 * The inbox's pages, rendered on the server with {@link html}: every stored or
 * model-written string is escaped on the way in.
 */
import { sha256Hex } from '../../../internal/sha256.ts';
import type { ModelMessage } from '../../../task/index.ts';
import type { PendingCall } from '../../agent/index.ts';
import { describeMessage, pretty } from '../message-text.ts';
import type { CorruptRun, SessionPendingCall, SessionRun } from '../types.ts';
import { type Html, html } from './html.ts';

/** What every page needs to link and post back: the mount point and the form secret. */
export interface PageContext {
  /** The handler's path prefix, without a trailing slash ('' at the root). */
  base: string;
  csrf: string;
  /** Ask for the decider's name in the forms (false when the server names them). */
  askName: boolean;
  /**
   * Who is signed in (a token's approver, or the identity `identify` gave), and whether
   * the browser has a login to end with a log-out button.
   */
  account?: { name?: string; canLogOut: boolean };
  /** "Now", for the "3 min ago" of the pages (default: the clock). */
  now?: number;
}

/** The statuses the filter offers; `suspended` lists pending calls, the others list runs. */
export const STATUS_FILTERS = [
  'suspended',
  'ready',
  'running',
  'done',
  'error',
  'cancelled',
  'all',
] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** A value longer than this many characters of JSON is folded into a `<details>`. */
const FOLD_CHARS = 300;
/** How many of the run's last messages a pending call shows for context. */
const CONTEXT_MESSAGES = 3;

export { pretty };

/**
 * How long ago `iso` was, in words: "just now", "3 min ago", "2 h ago", "4 days ago".
 * The script keeps it current; the exact time is the element's title.
 */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** A time shown as "3 min ago", the exact time (UTC) on hover. */
export const timeAgo = (ctx: Pick<PageContext, 'now'>, iso: string): Html =>
  html`<time datetime="${iso}" title="${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}" data-ago>${ago(iso, ctx.now)}</time>`;

/** A JSON value in a `<pre>`, folded when long. */
export function jsonBlock(value: unknown, label: string): Html {
  const text = pretty(value);
  return text.length > FOLD_CHARS
    ? html`<details><summary>${label} (${text.length} characters)</summary><pre>${text}</pre></details>`
    : html`<pre>${text}</pre>`;
}

/** One argument's value as read-only text (code, not a field), folded when long. */
function argValue(value: unknown, label: string): Html {
  const text = pretty(value);
  if (text.length > FOLD_CHARS) return jsonBlock(value, label);
  return text.includes('\n')
    ? html`<pre class="value">${text}</pre>`
    : html`<code class="value">${text}</code>`;
}

/** Arguments one value per key, each folded when long. */
export function argsBlock(args: unknown): Html {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return html`<div class="args">${argValue(args, 'Arguments')}</div>`;
  }
  const entries = Object.entries(args as Record<string, unknown>);
  if (entries.length === 0) return html`<p class="empty">No arguments.</p>`;
  return html`<dl class="args">${entries.map(
    ([key, value]) => html`<dt>${key}</dt><dd>${argValue(value, key)}</dd>`,
  )}</dl>`;
}

/** Messages as a list, each with its role, long ones folded. */
export function messageList(messages: readonly ModelMessage[]): Html {
  if (messages.length === 0) return html`<p class="empty">No messages yet.</p>`;
  return html`<ol class="messages">${messages.map((m) => {
    const { role, text } = describeMessage(m);
    const body =
      text.length > FOLD_CHARS * 4
        ? html`<details><summary>${text.slice(0, 120)}…</summary><pre>${text}</pre></details>`
        : html`<pre>${text}</pre>`;
    return html`<li><span class="role">${role}</span>${body}</li>`;
  })}</ol>`;
}

/** An address in the inbox: `segments` (ids among them) percent-encoded under its base. */
export const inboxUrl = (ctx: Pick<PageContext, 'base'>, ...segments: string[]) =>
  `${ctx.base}/${segments.map(encodeURIComponent).join('/')}`;
/** The address of a session run's page. */
export const runUrl = (ctx: PageContext, runId: string) => inboxUrl(ctx, 'runs', runId);

/**
 * The decision form of one pending call: Approve/Reject, or an answer for a suspension;
 * posted to `action` (default: the session call's address).
 */
export function decideForm(
  ctx: PageContext,
  runId: string,
  call: PendingCall,
  action = inboxUrl(ctx, 'runs', runId, 'calls', call.toolCallId),
): Html {
  // Unique per call whatever characters the ids hold, so every label names its own field.
  const id = `c${sha256Hex(action).slice(0, 16)}`;
  const name = ctx.askName
    ? html`<label for="by-${id}">Your name (optional, not verified)<input id="by-${id}" name="by" autocomplete="name" maxlength="200"></label>`
    : '';
  const hidden = html`<input type="hidden" name="csrf" value="${ctx.csrf}">`;
  if (call.kind === 'suspend') {
    const schema = declaredSchema(call.payload);
    const hint = schema === undefined ? 'Answer' : 'Answer (JSON matching the schema)';
    return html`<form class="decide" method="post" action="${action}">
${hidden}<input type="hidden" name="action" value="answer">
<label for="answer-${id}">${hint}<textarea id="answer-${id}" name="answer" required></textarea></label>
${name}<div class="buttons"><button class="answer" type="submit">Send answer</button></div></form>
<form class="decide" method="post" action="${action}">${hidden}
<input type="hidden" name="action" value="reject">
<label for="reason-${id}">Reason for declining (optional)<input id="reason-${id}" name="note" maxlength="2000"></label>
${ctx.askName ? html`<input type="hidden" name="by" value="">` : ''}
<div class="buttons"><button class="reject" type="submit">Reject</button></div></form>`;
  }
  return html`<form class="decide" method="post" action="${action}">
${hidden}<label for="note-${id}">Note or reason (optional)<input id="note-${id}" name="note" maxlength="2000"></label>
${name}<div class="buttons"><button class="approve" type="submit" name="action" value="approve">Approve</button>
<button class="reject" type="submit" name="action" value="reject">Reject</button></div></form>`;
}

/** The JSON Schema a suspension declares for its answer: `payload.schema`, when it is one. */
export function declaredSchema(payload: unknown): object | boolean | undefined {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const schema = (payload as { schema?: unknown }).schema;
  return typeof schema === 'boolean' || (schema !== null && typeof schema === 'object')
    ? (schema as object | boolean)
    : undefined;
}

/**
 * What a pending call asks for, and the items of its declared risk and side effects: a
 * declared risk stands out, what the tool did not declare is said quietly.
 */
export function callSummary(call: PendingCall): { asks: Html; declared: Html } {
  const undeclared = [
    call.risk === undefined ? 'risk' : '',
    call.sideEffects === undefined ? 'side effects' : '',
  ].filter((what) => what !== '');
  return {
    asks:
      call.kind === 'suspend'
        ? html`asks for an answer: <strong>${call.reason ?? 'Suspended'}</strong>`
        : html`asks for approval`,
    declared: html`${call.risk === undefined ? '' : html`<li>risk <span class="risk">${call.risk}</span></li>`}${
      call.sideEffects === undefined
        ? ''
        : html`<li>side effects ${call.sideEffects ? 'yes' : 'none'}</li>`
    }${undeclared.length === 0 ? '' : html`<li class="undeclared">${undeclared.join(' and ')} not declared</li>`}`,
  };
}

/**
 * An id fino made up (`$call:refund#2`, starting with "$") as a person reads it
 * (`refund#2`); an id the code chose is kept as it is.
 */
export function readableId(id: string): string {
  if (!id.startsWith('$')) return id;
  const rest = id.slice(1);
  return rest.slice(rest.indexOf(':') + 1);
}

/** `shown` in place of an internal id, the id itself on hover. */
export const idPart = (shown: string, id: string | undefined): Html =>
  id === undefined ? html`${shown}` : html`<span class="id" title="${id}">${shown}</span>`;

/** One pending call: what it wants, why, in what context, and the form to decide it. */
export function pendingCard(
  ctx: PageContext,
  run: SessionRun,
  call: SessionPendingCall,
  withContext: boolean,
): Html {
  const { asks, declared } = callSummary(call);
  const context = withContext
    ? html`<details><summary>Last messages</summary>${messageList(
        (run.state?.messages ?? []).slice(-CONTEXT_MESSAGES),
      )}</details>`
    : '';
  return html`<article class="card pending" data-run="${run.runId}" data-call="${call.toolCallId}">
<h3><span class="tool">${call.toolName}</span> ${asks}</h3>
<ul class="meta"><li>run <a href="${runUrl(ctx, run.runId)}">${run.runId}</a></li>
${run.threadId === undefined ? '' : html`<li>thread ${run.threadId}</li>`}
${declared}<li>waiting since ${timeAgo(ctx, run.updatedAt)}</li>
<li>asked of anyone with access to this inbox</li></ul>
${argsBlock(call.args)}
${call.payload === undefined ? '' : html`<details><summary>Payload</summary><pre>${pretty(call.payload)}</pre></details>`}
${context}${decideForm(ctx, run.runId, call)}</article>`;
}

/** The tools a run called or waits to call, each named once, in order. */
function toolsOf(run: SessionRun): string[] {
  const names = (run.state?.steps ?? []).flatMap((step) =>
    (step.toolCalls ?? []).map((call: { name: string }) => call.name),
  );
  if (run.status === 'suspended') names.push(...run.pending.map((call) => call.toolName));
  return [...new Set(names)];
}

/** How many characters of a run's answer (or error) the list shows. */
const ANSWER_CHARS = 160;

/** A run's answer, or its error, shortened for the list. */
function outcomeOf(run: SessionRun): string {
  const text = run.status === 'done' ? run.text : run.status === 'error' ? run.error : '';
  return text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}…` : text;
}

/** The filter form: a plain GET, so it works without JavaScript. */
function filters(ctx: PageContext, tool: string, status: StatusFilter): Html {
  return html`<form class="filters" method="get" action="${ctx.base}/">
<label for="filter-tool">Tool<input id="filter-tool" name="tool" value="${tool}" maxlength="200"></label>
<label for="filter-status">Status<select id="filter-status" name="status">${STATUS_FILTERS.map(
    (s) =>
      html`<option value="${s}"${s === status ? html` selected` : ''}>${s === 'suspended' ? 'pending' : s}</option>`,
  )}</select></label><button type="submit">Filter</button></form>`;
}

/** The list part of the inbox, reloaded by the script when the store changes. */
export function listFragment(
  ctx: PageContext,
  runs: Array<SessionRun | CorruptRun>,
  tool: string,
  status: StatusFilter,
  workflows: { part: Html; count: number } = { part: html``, count: 0 },
): Html {
  // Newest change first; runs changed in the same millisecond by their revision (and,
  // from a store that keeps none, newest created first: `list` is oldest first).
  const readable = runs
    .filter((r): r is SessionRun => r.status !== 'corrupt')
    .reverse()
    .sort(
      (a, b) =>
        (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0) ||
        (b.revision ?? 0) - (a.revision ?? 0),
    );
  const corrupt = runs.filter((r): r is CorruptRun => r.status === 'corrupt');
  const broken =
    corrupt.length === 0
      ? ''
      : html`<p class="notice warn">${corrupt.length} stored run(s) cannot be read: ${corrupt.map((r) => r.runId).join(', ')}</p>`;
  if (status === 'suspended') {
    const cards = readable.flatMap((run) =>
      run.status === 'suspended'
        ? run.pending
            .filter((call) => tool === '' || call.toolName === tool)
            .map((call) => pendingCard(ctx, run, call, true))
        : [],
    );
    return html`${broken}${
      cards.length === 0 && workflows.count === 0
        ? html`<p class="empty">Nothing waits for a decision.</p>`
        : cards
    }${workflows.part}`;
  }
  const rows = readable.filter(
    (run) =>
      tool === '' ||
      (run.status === 'suspended' && run.pending.some((c) => c.toolName === tool)) ||
      (run.state?.steps ?? []).some((step) =>
        (step.toolCalls ?? []).some((c: { name: string }) => c.name === tool),
      ),
  );
  if (rows.length === 0) {
    return workflows.count === 0
      ? html`${broken}<p class="empty">No runs.</p>`
      : html`${broken}${workflows.part}`;
  }
  return html`${broken}<table class="runs"><thead><tr><th scope="col">Run</th><th scope="col">Status</th><th scope="col">Tools</th><th scope="col">Answer</th><th scope="col">Updated</th><th scope="col">Thread</th></tr></thead><tbody>${rows.map(
    (run) =>
      html`<tr><td><a href="${runUrl(ctx, run.runId)}">${run.runId}</a></td><td>${run.status}</td><td class="tools">${toolsOf(run).join(', ')}</td><td class="answer">${outcomeOf(run)}</td><td>${timeAgo(ctx, run.updatedAt)}</td><td>${run.threadId ?? ''}</td></tr>`,
  )}</tbody></table>${workflows.part}`;
}

/** Who is signed in, and the button that logs out (a POST, with the login's CSRF value). */
function accountPart(ctx: Partial<PageContext>): Html | '' {
  if (ctx.account === undefined || ctx.csrf === undefined) return '';
  const { name, canLogOut } = ctx.account;
  const who = name === undefined ? '' : html`<span>Signed in as <strong>${name}</strong></span> `;
  if (!canLogOut) return html`<div class="account">${who}</div>`;
  return html`<form class="account" method="post" action="${ctx.base}/logout">${who}<input type="hidden" name="csrf" value="${ctx.csrf}"><button type="submit">Log out</button></form>`;
}

/** A whole page around `body`. */
export function page(
  ctx: Pick<PageContext, 'base'> & Partial<PageContext>,
  title: string,
  body: Html,
): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="${ctx.base}/inbox.css">
<script src="${ctx.base}/inbox.js" defer></script></head>
<body><header><h1><a href="${ctx.base}/">Approval inbox</a></h1><span>${title === 'Approval inbox' ? '' : title}</span>${accountPart(ctx)}</header>
<main>${body}</main></body></html>`;
}

/** The inbox: filters and the list of pending calls (or runs). */
export function inboxPage(
  ctx: PageContext,
  runs: Array<SessionRun | CorruptRun>,
  tool: string,
  status: StatusFilter,
  workflows?: { part: Html; count: number },
): Html {
  return page(
    ctx,
    'Approval inbox',
    html`${filters(ctx, tool, status)}<section id="inbox-list" aria-live="polite" data-src="${ctx.base}/fragment" data-events="${ctx.base}/events">${listFragment(ctx, runs, tool, status, workflows)}</section>`,
  );
}

/** A page that says what went wrong and how to go on. */
export function messagePage(
  ctx: Pick<PageContext, 'base'> & Partial<PageContext>,
  title: string,
  text: string,
): Html {
  return page(
    ctx,
    title,
    html`<p class="notice warn" role="alert">${text}</p><p><a href="${ctx.base}/">Back to the inbox</a></p>`,
  );
}
