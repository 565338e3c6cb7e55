/**
 * A session run's routes: GET /runs/:runId (its page) and POST
 * /runs/:runId/calls/:toolCallId (a pending call approved, rejected or answered, once;
 * the loser of a race is told who decided and when).
 */
import { SessionError } from '../errors.ts';
import { runThread } from '../run-thread.ts';
import type { SessionRun } from '../types.ts';
import type { Visitor } from './access.ts';
import type { InboxContext, RunView } from './context.ts';
import { alreadyDecided, DONE, parseAnswer, readDecisionForm, statusOf } from './decision-form.ts';
import { HttpError, respond } from './http.ts';
import { runPage } from './run-page.ts';

/** How many of a thread's newest messages a run's page shows. */
const THREAD_MESSAGES = 50;

/** A run's page: status, pending calls, transcript, thread, audit trail and steps. */
export const runView: RunView = async (inbox, ctx, runId, notice) => {
  const status = statusOf(notice);
  const run = await inbox.session.get(runId);
  if (!run) throw new HttpError(404, `No run with id "${runId}".`);
  return respond(
    runPage(ctx, run, notice, await runThread(inbox.session, run, { limit: THREAD_MESSAGES })),
    { status },
  );
};

/** Approves, rejects or answers a session run's pending call, once. */
export async function decideRun(
  inbox: InboxContext,
  request: Request,
  url: URL,
  visitor: Visitor,
  ref: { runId: string; toolCallId: string },
): Promise<Response> {
  const { session, access } = inbox;
  const { ctx, form, decision } = await readDecisionForm(access, request, url, visitor);
  const { action, by, note } = decision;
  let run: SessionRun;
  try {
    if (action === 'approve') run = await session.approve(ref, { by, note });
    else if (action === 'reject') {
      run = await session.reject(ref, decision.reason, { by, note: decision.reason });
    } else {
      const value = await answerValue(inbox, ref, form.get('answer') ?? '');
      run = await session.resume(ref, value, { by, note });
    }
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    if (error.code === 'NOT_FOUND') throw new HttpError(404, error.message);
    if (error.code === 'INVALID_ARGUMENT') throw new HttpError(400, error.message);
    const text = await refusal(inbox, error, ref);
    if (text === undefined) throw error;
    return runView(inbox, ctx, ref.runId, { text, warn: true });
  }
  // The run as stored now, with its audit trail (the decision's result lacks it).
  const now = (await session.get(run.runId)) ?? run;
  return respond(
    runPage(
      ctx,
      now,
      {
        text:
          now.status === 'ready'
            ? `${DONE[action]}. The run is ready and waits for a worker.`
            : `${DONE[action]}. The run is now ${now.status}.`,
      },
      await runThread(session, now, { limit: THREAD_MESSAGES }),
    ),
  );
}

/** Why a decision was refused, in words for the person who clicked. */
async function refusal(
  inbox: InboxContext,
  error: SessionError,
  ref: { runId: string; toolCallId: string },
) {
  if (error.code === 'ALREADY_DECIDED') {
    const run = await inbox.session.get(ref.runId);
    return alreadyDecided(run?.audit?.filter((a) => a.toolCallId === ref.toolCallId).at(-1));
  }
  if (error.code === 'NOT_PENDING') {
    return 'This call no longer waits for a decision (the run was cancelled or has moved on). Nothing was changed.';
  }
  return undefined;
}

/** The answer to a session run's suspension, checked against its schema. */
async function answerValue(
  inbox: InboxContext,
  ref: { runId: string; toolCallId: string },
  text: string,
): Promise<unknown> {
  const run = await inbox.session.get(ref.runId);
  const call =
    run?.status === 'suspended'
      ? run.pending.find((p) => p.toolCallId === ref.toolCallId)
      : undefined;
  return parseAnswer(call?.payload, text);
}
