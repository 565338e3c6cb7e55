/**
 * What changed in a workflow run since the page was last told (decision 252): each read
 * of the run (its view and its history) gives the chunks for what is new — its status
 * part when it changed (and the message metadata with it), each decision that appeared or
 * changed, each `ctx.emit` event not sent yet — and nothing when nothing changed.
 */
import type { WorkflowHistoryEntry, WorkflowRun } from '../../workflow/index.ts';
import type { FinoDataTypes, UIMessageChunk } from './types.ts';
import {
  decisionChunk,
  decisionsOf,
  emitsOf,
  eventChunk,
  hasEnded,
  runMetadata,
  statusChunk,
} from './workflow-parts.ts';

type DecisionData = FinoDataTypes['fino-workflow-decision'];

/** The page's view of one run: what it was told, and what to tell it next. */
export class WorkflowRunChanges {
  /** The last view of the run read. */
  last: WorkflowRun | undefined;
  private status = '';
  private events = 0;
  private readonly decisions = new Map<string, string>();

  /** The chunks for what changed in `run` (and its `history`, when read again) since the last call. */
  update(run: WorkflowRun, history: readonly WorkflowHistoryEntry[] | undefined): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    const previous = this.last;
    this.last = run;
    const status = statusChunk(run);
    const shown = JSON.stringify(status);
    if (shown !== this.status) {
      this.status = shown;
      out.push(status);
      if (previous !== undefined && previous.status !== run.status) {
        out.push({ type: 'message-metadata', messageMetadata: runMetadata(run) });
      }
    }
    out.push(...this.decisionChanges(run));
    if (history === undefined) return out;
    const emits = emitsOf(history);
    for (const entry of emits.slice(this.events)) out.push(eventChunk(run.runId, entry));
    this.events = Math.max(this.events, emits.length);
    return out;
  }

  /** Decision parts that are new or changed; `closed` for pending ones an ended run dropped. */
  private decisionChanges(run: WorkflowRun): UIMessageChunk[] {
    const now = decisionsOf(run);
    if (hasEnded(run.status)) {
      for (const [id, shown] of this.decisions) {
        const was = JSON.parse(shown) as DecisionData;
        if (!now.has(id) && was.state === 'pending') now.set(id, { ...was, state: 'closed' });
      }
    }
    const out: UIMessageChunk[] = [];
    for (const [id, data] of now) {
      const shown = JSON.stringify(data);
      if (this.decisions.get(id) === shown) continue;
      this.decisions.set(id, shown);
      out.push(decisionChunk(data));
    }
    return out;
  }
}
