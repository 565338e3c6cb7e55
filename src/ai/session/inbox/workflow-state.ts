/**
 * A workflow run's state in the words a person needs (issue 32): done, failed, running
 * on a worker, waiting for a decision — or decided (or due) and waiting for a worker,
 * which nothing moves until one runs — and what it waits on, by tool name, its internal
 * ids kept to the titles.
 */
import { type Html, html } from './html.ts';
import { idPart, readableId } from './pages.ts';
import type { InboxWorkflowRun } from './workflows.ts';

/** A workflow run's state as its page and the runs table show it. */
export interface WorkflowRunState {
  /** The state in a few words: "done", "approved, waiting for a worker", … */
  label: string;
  /** What the run waits on, one part each ("a decision on refund", "signal courier-scan"). */
  waits: Html[];
  /** Whether the run can go on but only a worker moves it (a decision taken, a timer due). */
  needsWorker: boolean;
}

/** What the pages say after a decision, and on a run that waits for a worker. */
export const WORKFLOW_WORKER_HINT =
  'Nothing happens until a worker runs: a process with worker({ store, workflows }).start() (or drain()) over this workflow store picks the run up and carries it on.';

const FINISHED: Readonly<Record<string, string>> = {
  done: 'done',
  error: 'failed',
  cancelled: 'cancelled',
  continued: 'continued as new',
};
const DECIDED: Readonly<Record<string, string>> = {
  approve: 'approved',
  reject: 'rejected',
  resume: 'answered',
};

/** The tool a decision is about: its pending call's or audit entry's, else its id's. */
function toolOf(run: InboxWorkflowRun, decisionId: string): string {
  const named =
    run.pending?.find((p) => p.decisionId === decisionId)?.toolName ??
    run.audit?.find((a) => a.decisionId === decisionId)?.toolName;
  return named ?? readableId(decisionId);
}

/** How a decided decision was decided ("approved"), from the audit trail when it is at hand. */
function decidedAs(run: InboxWorkflowRun, decisionId: string): string {
  const last = run.audit?.filter((a) => a.decisionId === decisionId).at(-1);
  return (last && DECIDED[last.action]) ?? 'decided';
}

/**
 * The state of `run`, whose undecided pending decisions are `undecided` (decision ids):
 * a decision it waits on that is not among them has been taken.
 */
export function workflowRunState(
  run: InboxWorkflowRun,
  undecided: ReadonlySet<string>,
  now = Date.now(),
): WorkflowRunState {
  const finished = FINISHED[run.status];
  if (finished !== undefined) return { label: finished, waits: [], needsWorker: false };
  if (run.status !== 'waiting') {
    const label = run.worker === undefined ? run.status : `${run.status} on worker ${run.worker}`;
    return { label, waits: [], needsWorker: false };
  }
  const on = run.waitingOn ?? { signals: [], decisions: [] };
  const decided = on.decisions.filter((d) => !undecided.has(d));
  const due = on.timer !== undefined && Date.parse(on.timer) <= now;
  const waits = [
    ...on.decisions.map((d) =>
      decided.includes(d)
        ? html`${idPart(toolOf(run, d), d)} ${decidedAs(run, d)}`
        : html`a decision on ${idPart(toolOf(run, d), d)}`,
    ),
    ...on.signals.map((s) => html`signal ${s}`),
    ...(on.children ?? []).map((c) => html`child run ${c}`),
    ...(on.timer === undefined ? [] : [html`timer ${due ? 'due since' : 'until'} ${on.timer}`]),
  ];
  const needsWorker = decided.length > 0 || due;
  const label =
    decided.length > 0
      ? `${decidedAs(run, decided[0])}, waiting for a worker`
      : due
        ? 'timer due, waiting for a worker'
        : waitingFor(on);
  return { label, waits, needsWorker };
}

/** What a waiting run that no worker can move yet waits for, in a few words. */
function waitingFor(on: NonNullable<InboxWorkflowRun['waitingOn']>): string {
  if (on.decisions.length > 0) return 'waiting for a decision';
  if (on.signals.length > 0) return 'waiting for a signal';
  if ((on.children ?? []).length > 0) return 'waiting for a child run';
  return on.timer === undefined ? 'waiting' : 'sleeping';
}
