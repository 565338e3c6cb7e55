/**
 * A remote task's questions on MCP 2026-07-28 (the Tasks extension, decision 243): the
 * `inputRequests` its `tasks/get` shows are answered as a 2025 server's requests are —
 * an approval the caller already gave, then `onElicit`, then the call following the task
 * (which suspends with the question) — and each answer is sent with `tasks/update`.
 * A key is answered once: while its answer is pending or being sent, later polls that
 * still show it skip it.
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { approvalSubject } from '../protocol/index.ts';
import type { ApprovedCalls } from './approved-calls.ts';
import { withDefaults } from './client-catalog.ts';
import type { McpClientOptions } from './client-options.ts';
import type { TaskInputs } from './tasks/index.ts';

/** Answers one question of a remote task; `undefined` for one this client cannot answer. */
export type AnswerTaskQuestion = (request: unknown) => Promise<ElicitResult> | undefined;

/** Sends the answer to the question `key` of task `taskId` (`tasks/update`). */
export type SendTaskAnswer = (
  taskId: string,
  key: string,
  answer: ElicitResult,
) => Promise<unknown>;

/** The most questions one client answers at once (each may wait on its user). */
export const MAX_OPEN_TASK_QUESTIONS = 256;

/** Never aborts: a question put to a followed call stays until that call answers it. */
const STAYS = new AbortController().signal;

/** How this client answers a remote task's question: only `elicitation/create` forms. */
export function taskQuestionAnswerer(
  options: Pick<McpClientOptions, 'onElicit'>,
  routes: { approved: ApprovedCalls; inputs: TaskInputs },
): AnswerTaskQuestion {
  return (request) => {
    const params = formOf(request);
    if (params === undefined) return undefined;
    const subject = approvalSubject(params);
    if (subject !== undefined && routes.approved.has(subject.tool, subject.arguments)) {
      return Promise.resolve({ action: 'accept', content: { approve: true } });
    }
    const { onElicit } = options;
    if (onElicit) return Promise.resolve(onElicit(params)).then((a) => withDefaults(params, a));
    return routes.inputs.receive(params, STAYS) ?? Promise.resolve({ action: 'decline' });
  };
}

/** The form an input request asks, when it is an `elicitation/create` with a message. */
function formOf(request: unknown): ElicitRequest['params'] | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const { method, params } = request as { method?: unknown; params?: unknown };
  if (method !== 'elicitation/create' || typeof params !== 'object' || params === null) {
    return undefined;
  }
  return typeof (params as { message?: unknown }).message === 'string'
    ? (params as ElicitRequest['params'])
    : undefined;
}

/** Answers the questions a task's `tasks/get` shows, each key once, each answer sent on its own. */
export class TaskQuestions {
  readonly #open = new Set<string>();
  readonly #answer: AnswerTaskQuestion;
  readonly #send: SendTaskAnswer;

  constructor(answer: AnswerTaskQuestion, send: SendTaskAnswer) {
    this.#answer = answer;
    this.#send = send;
  }

  /** Starts answering the `inputRequests` of task `taskId` not already being answered. */
  answer(taskId: string, inputRequests: unknown): void {
    if (typeof inputRequests !== 'object' || inputRequests === null) return;
    for (const [key, request] of Object.entries(inputRequests)) {
      const id = JSON.stringify([taskId, key]);
      if (this.#open.has(id) || this.#open.size >= MAX_OPEN_TASK_QUESTIONS) continue;
      const answering = this.#answer(request);
      if (answering === undefined) continue;
      this.#open.add(id);
      void answering
        .then((answer) => this.#send(taskId, key, answer))
        .catch(() => undefined) // not sent: a later poll shows the question again
        .finally(() => this.#open.delete(id));
    }
  }
}
