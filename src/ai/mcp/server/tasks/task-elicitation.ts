/**
 * `ctx.elicit()` inside a durable MCP task: the forms a run asks park the task in
 * `input_required` (one pending call per form, each carrying its form and the answers
 * so far — forms asked at once with `Promise.all` wait together), each client answer is
 * put to its form's schema once, and once every form is answered the tool runs again
 * from the start, where each `ctx.elicit()` returns the recorded answers in order — a bad
 * `accept` as the error it made, never asked again (decisions 126, 242).
 */
import type { ElicitResult } from '@modelcontextprotocol/server';
import { errorMessage } from '../../../../internal/thrown-value.ts';
import { type ElicitAnswer, type ElicitRequest, SuspendSignal } from '../../../../task/index.ts';
import type { Decision, PendingCall } from '../../../agent/index.ts';
import type { StoredPending } from '../../../session/index.ts';
import { checkElicitRequest, checkedAnswer } from '../server-requests.ts';

/** A recorded answer: what `ctx.elicit()` returns, or the error it rejects with. */
export type RecordedAnswer = ElicitAnswer | { error: string };

/** The form a parked task waits on, and the answers its earlier forms got. */
export interface ParkedElicitation {
  elicit: ElicitRequest;
  answers: RecordedAnswer[];
}

/** The key of a resume value that carries a task's elicitation answers. */
const ANSWERS_KEY = 'fino.elicitAnswers';

/** The most forms one task may ask (each answer is stored with the task). */
export const MAX_TASK_ELICITATIONS = 20;

/** `ctx.elicit` of one run of a task's tool, and the forms it parked on (if any). */
export interface TaskElicitation {
  elicit(request: ElicitRequest): Promise<ElicitAnswer>;
  /** The forms this run stopped on, in the order asked, with the answers it was given; empty if none. */
  parked(): ParkedElicitation[];
}

/** The answers a resume value carries, or `undefined` when it is another kind of answer. */
export function elicitAnswers(resume: unknown): RecordedAnswer[] | undefined {
  if (typeof resume !== 'object' || resume === null) return undefined;
  const answers = (resume as Record<string, unknown>)[ANSWERS_KEY];
  return Array.isArray(answers) ? (answers as RecordedAnswer[]) : undefined;
}

/** `ctx.elicit` answering from `answers`, in order; past them it parks the task on each form asked. */
export function taskElicitation(answers: readonly RecordedAnswer[]): TaskElicitation {
  let next = 0;
  const parked: ParkedElicitation[] = [];
  return {
    async elicit(request) {
      checkElicitRequest(request);
      const index = next++;
      const recorded = answers[index];
      if (recorded !== undefined) {
        if ('error' in recorded) throw new Error(recorded.error);
        return recorded;
      }
      if (index >= MAX_TASK_ELICITATIONS) {
        throw new Error(
          `ctx.elicit: a task may ask at most ${MAX_TASK_ELICITATIONS} forms; this is form ${index + 1}`,
        );
      }
      parked.push({ elicit: request, answers: [...answers] });
      // Control flow: `invoke()` rethrows it; the runner parks the task even if the tool caught it.
      throw new SuspendSignal(request.message);
    },
    parked: () => parked,
  };
}

/** The form a pending call waits on, when it is an elicitation. */
export function parkedElicitation(call: PendingCall): ParkedElicitation | undefined {
  const payload = call.payload as Partial<ParkedElicitation> | undefined;
  if (call.kind !== 'suspend' || typeof payload?.elicit !== 'object') return undefined;
  return { elicit: payload.elicit, answers: Array.isArray(payload.answers) ? payload.answers : [] };
}

/** The decision a client's answer (or what asking failed with) makes: the run resumes with it. */
export function elicitationDecision(
  parked: ParkedElicitation,
  answer: { result: ElicitResult } | { thrown: unknown },
): Decision {
  let recorded: RecordedAnswer;
  if ('result' in answer) {
    try {
      recorded = checkedAnswer(parked.elicit, answer.result);
    } catch (error) {
      recorded = { error: errorMessage(error) };
    }
  } else {
    recorded = {
      error: `ctx.elicit: the client's answer to "${parked.elicit.message}" did not fit the form: ${errorMessage(answer.thrown).slice(0, 300)}`,
    };
  }
  return { resume: { [ANSWERS_KEY]: [...parked.answers, recorded] } };
}

/**
 * The one decision a task parked on several forms resumes with, once each form's pending
 * call is decided: the answers so far and every form's answer in the order asked, or the
 * first rejection (`fino sessions reject`). `undefined` for a task parked on one call.
 */
export function combinedDecision(pending: readonly StoredPending[]): Decision | undefined {
  if (pending.length < 2) return undefined;
  const decisions = pending.map((p) => p.decision);
  const rejected = decisions.find((d) => d !== undefined && 'reject' in d);
  if (rejected) return rejected;
  const each = decisions.map((d) => elicitAnswers(d && 'resume' in d ? d.resume : undefined));
  if (each.some((answers) => answers === undefined || answers.length === 0)) return undefined;
  const base = (each[0] as RecordedAnswer[]).slice(0, -1);
  return { resume: { [ANSWERS_KEY]: [...base, ...each.map((a) => a?.at(-1) as RecordedAnswer)] } };
}
