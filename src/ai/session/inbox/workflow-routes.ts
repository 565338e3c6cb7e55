/**
 * A workflow run's routes: GET /workflows/:runId (its page: status, pending decisions,
 * timeline, audit trail) and POST /workflows/:runId/decisions/:decisionId (a pending
 * decision approved, rejected or answered, once).
 */
import type { Visitor } from './access.ts';
import type { InboxContext, RunView } from './context.ts';
import {
  alreadyDecided,
  DONE,
  type Notice,
  parseAnswer,
  readDecisionForm,
  statusOf,
} from './decision-form.ts';
import { HttpError, respond } from './http.ts';
import { workflowRunPage } from './workflows.ts';

/** A workflow run's page: status, pending decisions, timeline, audit trail. */
export const workflowView: RunView = async (inbox, ctx, runId, notice) => {
  const status = statusOf(notice);
  const { workflows } = inbox;
  if (!workflows) throw new HttpError(404, 'This inbox shows no workflow runs.');
  try {
    const run = await workflows.get(runId);
    let unreadable: Notice | undefined;
    const history = await workflows.history(runId).catch((error: unknown) => {
      if (workflowCode(error) !== 'CORRUPT_RUN') throw error;
      unreadable = { text: (error as Error).message, warn: true }; // the run is shown without it
      return [];
    });
    return respond(workflowRunPage(ctx, run, history, notice ?? unreadable), { status });
  } catch (error) {
    if (workflowCode(error) === 'NOT_FOUND') {
      throw new HttpError(404, `No workflow run with id "${runId}".`);
    }
    throw error;
  }
};

/** Approves, rejects or answers a workflow run's pending decision, once. */
export async function decideWorkflow(
  inbox: InboxContext,
  request: Request,
  url: URL,
  visitor: Visitor,
  ref: { runId: string; decisionId: string },
): Promise<Response> {
  const { workflows, access } = inbox;
  if (!workflows) throw new HttpError(404, 'No such form.');
  const { ctx, form, decision } = await readDecisionForm(access, request, url, visitor);
  const { action, by, note } = decision;
  try {
    if (action === 'approve') await workflows.decide(ref, { approve: true }, { by, note });
    else if (action === 'reject') {
      await workflows.decide(ref, { reject: decision.reason }, { by, note: decision.reason });
    } else {
      const pending = (await workflows.get(ref.runId)).pending ?? [];
      const waiting = pending.find((p) => p.decisionId === ref.decisionId);
      const payload = waiting?.payload;
      const value = parseAnswer(payload, form.get('answer') ?? '');
      await workflows.decide(ref, { resume: value }, { by, note });
    }
  } catch (error) {
    const notice = await workflowRefusal(inbox, error, ref);
    return workflowView(inbox, ctx, ref.runId, notice);
  }
  return workflowView(inbox, ctx, ref.runId, {
    text: `${DONE[action]}. The run goes on when a worker picks it up.`,
  });
}

/**
 * The notice for a decision a workflow run refused (it is no longer pending, or someone
 * decided first); any other error is thrown on, as a 404, a 400 or itself.
 */
async function workflowRefusal(
  inbox: InboxContext,
  error: unknown,
  ref: { runId: string; decisionId: string },
): Promise<Notice> {
  const code = workflowCode(error);
  if (code === 'NOT_FOUND') throw new HttpError(404, (error as Error).message);
  if (code === 'INVALID_ARGUMENT') throw new HttpError(400, (error as Error).message);
  if (code === 'NOT_PENDING') {
    return {
      text: 'This decision is no longer pending (the run has ended). Nothing was changed.',
      warn: true,
    };
  }
  if (code !== 'ALREADY_DECIDED' || !inbox.workflows) throw error;
  const run = await inbox.workflows.get(ref.runId);
  const last = run.audit?.filter((a) => a.decisionId === ref.decisionId).at(-1);
  return { text: alreadyDecided(last), warn: true };
}

/** The code of a `WorkflowError` (recognised by name: the inbox does not import fino:workflow). */
export function workflowCode(error: unknown): string | undefined {
  try {
    const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
    return name === 'WorkflowError' && typeof code === 'string' ? code : undefined;
  } catch {
    return undefined; // a thrown value whose properties throw is no WorkflowError
  }
}
