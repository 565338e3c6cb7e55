/**
 * `ctx.elicit()` inside a durable MCP task: the form parks the task in `input_required`
 * (its pending call carries the form and the answers so far), the client's answer is put
 * to the form's schema once, and the tool runs again from the start, where each
 * `ctx.elicit()` returns the recorded answers in order — a bad `accept` as the error it
 * made, never asked again (decision 126).
 */
import type { ElicitResult } from '@modelcontextprotocol/server';
import { errorMessage } from '../../../../internal/thrown-value.ts';
import { type ElicitAnswer, type ElicitRequest, SuspendSignal } from '../../../../task/index.ts';
import type { Decision, PendingCall } from '../../../agent/index.ts';
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

/** `ctx.elicit` of one run of a task's tool, and the form it parked on (if any). */
export interface TaskElicitation {
  elicit(request: ElicitRequest): Promise<ElicitAnswer>;
  /** The form this run stopped on, with the answers it was given; `undefined` if none. */
  parked(): ParkedElicitation | undefined;
}

/** The answers a resume value carries, or `undefined` when it is another kind of answer. */
export function elicitAnswers(resume: unknown): RecordedAnswer[] | undefined {
  if (typeof resume !== 'object' || resume === null) return undefined;
  const answers = (resume as Record<string, unknown>)[ANSWERS_KEY];
  return Array.isArray(answers) ? (answers as RecordedAnswer[]) : undefined;
}

/** `ctx.elicit` answering from `answers`, in order; past them it parks the task. */
export function taskElicitation(answers: readonly RecordedAnswer[]): TaskElicitation {
  let next = 0;
  let parked: ParkedElicitation | undefined;
  return {
    async elicit(request) {
      checkElicitRequest(request);
      const index = next++;
      const recorded = answers[index];
      if (recorded !== undefined) {
        if ('error' in recorded) throw new Error(recorded.error);
        return recorded;
      }
      if (answers.length >= MAX_TASK_ELICITATIONS) {
        throw new Error(
          `ctx.elicit: a task may ask at most ${MAX_TASK_ELICITATIONS} forms; this is form ${index + 1}`,
        );
      }
      parked ??= { elicit: request, answers: [...answers] };
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
