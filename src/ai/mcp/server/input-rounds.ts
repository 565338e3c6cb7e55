/**
 * `ctx.sample()` and `ctx.elicit()` of a call served on the 2026-07-28 revision, which
 * has no server-to-client requests: what a call asks comes back to the client as an
 * input-required result (SEP-2322), the client answers and calls again with the answers
 * and the sealed state, and the tool runs again from the start, where each
 * `ctx.sample()`/`ctx.elicit()` returns the recorded answers in order. An answer that
 * does not fit is recorded as the error it makes, never asked again (decision 205).
 */
import {
  type CreateMessageRequest,
  type ElicitResult,
  type InputRequest,
  inputRequired,
  inputResponse,
  specTypeSchemas,
} from '@modelcontextprotocol/server';
import { describeValue } from '../../../internal/describe-value.ts';
import type { FormParams } from './server-requests.ts';

/** What one `ctx.sample()`/`ctx.elicit()` of a call got: the client's answer, or the error it makes. */
export type RecordedInput =
  | { kind: 'elicit'; result: ElicitResult }
  | { kind: 'sample'; result: Record<string, unknown> }
  | { error: string };

/** One input request of a round: its key on the wire and what it asks. */
export interface AskedInput {
  key: string;
  kind: 'elicit' | 'sample';
}

/** The most `ctx.sample()`/`ctx.elicit()` answers one call may record. */
export const MAX_CALL_INPUTS = 20;
/** The most bytes (JSON) the recorded answers of one call may take together: they travel in its state. */
export const MAX_CALL_INPUT_BYTES = 1024 * 1024;
/** Keys the approval and suspension forms use on the wire (call-tool.ts). */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['approval', 'answer']);
const KEY_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/u;

/** The signal a call stops with while the client is asked: it runs again with the answer. */
export class InputRequiredSignal extends Error {
  override readonly name = 'InputRequiredSignal';
}

/** The inputs of one run of a call: replayed from the recorded answers, asked past them. */
export class InputRounds {
  readonly #recorded: RecordedInput[];
  readonly #pending: { asked: AskedInput; request: InputRequest }[] = [];
  #next = 0;

  /**
   * `recorded`: the answers of earlier rounds; `asked`: what the previous round asked
   * (from the sealed state, so only answers to what this server asked are read);
   * `responses`: the `inputResponses` of this request.
   */
  constructor(
    recorded: readonly RecordedInput[],
    asked: readonly AskedInput[],
    responses: unknown,
  ) {
    this.#recorded = [...recorded];
    for (const question of asked) {
      const answer = answerTo(question, responses, this.#recordedBytes());
      if (answer === undefined) break; // not answered: the replay asks it again
      this.#recorded.push(answer);
    }
  }

  /** `ctx.sample`'s request to the client: the recorded answer, or asked (and this run stops). */
  sample = (params: CreateMessageRequest['params'], key?: string): Promise<unknown> =>
    this.#ask('sample', key, () => inputRequired.createMessage(params));

  /** `ctx.elicit`'s request to the client: the recorded answer, or asked (and this run stops). */
  elicit = (params: FormParams, key?: string): Promise<unknown> =>
    this.#ask('elicit', key, () => inputRequired.elicit(params as never));

  /** The answers recorded so far, to seal into the state of the next round. */
  recorded(): RecordedInput[] {
    return [...this.#recorded];
  }

  /** What this run asked and waits for: the input requests of the next round (empty when none). */
  pending(): { asked: AskedInput[]; requests: Record<string, InputRequest> } {
    return {
      asked: this.#pending.map(({ asked }) => asked),
      requests: Object.fromEntries(this.#pending.map(({ asked, request }) => [asked.key, request])),
    };
  }

  async #ask(
    kind: AskedInput['kind'],
    key: string | undefined,
    request: () => InputRequest,
  ): Promise<unknown> {
    const index = this.#next++;
    const recorded = this.#recorded[index];
    const what = kind === 'elicit' ? 'ctx.elicit' : 'ctx.sample';
    if (recorded !== undefined) {
      if ('error' in recorded) throw new Error(recorded.error);
      if (recorded.kind !== kind) {
        throw new Error(
          `${what}: this call asked its client something else at this point in an earlier round; a tool that asks must ask the same things in the same order each time it runs`,
        );
      }
      return recorded.result;
    }
    if (index >= MAX_CALL_INPUTS) {
      throw new Error(
        `${what}: a call may ask its client at most ${MAX_CALL_INPUTS} times on MCP 2026-07-28; this is request ${index + 1}`,
      );
    }
    const name = checkedKey(what, key, index, this.#pending);
    this.#pending.push({ asked: { key: name, kind }, request: request() });
    throw new InputRequiredSignal(
      `${what}: waiting for the client's answer (MCP 2026-07-28 input required); the call runs again with it`,
    );
  }

  #recordedBytes(): number {
    return JSON.stringify(this.#recorded).length;
  }
}

/** The wire key of a request: the tool's own `key`, checked, or `fino.input.<index>`. */
function checkedKey(
  what: string,
  key: string | undefined,
  index: number,
  pending: readonly { asked: AskedInput }[],
): string {
  if (key === undefined) return `fino.input.${index}`;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key) || RESERVED_KEYS.has(key)) {
    throw new TypeError(
      `${what}: key: expected 1 to 64 letters, digits, '_', '.' or '-' (not "approval" or "answer"), received ${describeValue(key)}`,
    );
  }
  if (pending.some(({ asked }) => asked.key === key)) {
    throw new TypeError(`${what}: key: "${key}" is already asked in this round`);
  }
  return key;
}

/** The recorded form of the client's answer to `question`; `undefined` when it sent none. */
function answerTo(
  question: AskedInput,
  responses: unknown,
  recordedBytes: number,
): RecordedInput | undefined {
  const raw = (responses as Record<string, unknown> | undefined)?.[question.key];
  if (raw === undefined || raw === null) return undefined;
  const what = question.kind === 'elicit' ? 'ctx.elicit' : 'ctx.sample';
  const bytes = JSON.stringify(raw).length;
  if (recordedBytes + bytes > MAX_CALL_INPUT_BYTES) {
    return {
      error: `${what}: the client's answer "${question.key}" takes ${bytes} bytes, more than the ${MAX_CALL_INPUT_BYTES} bytes a call's answers may take together`,
    };
  }
  const view = inputResponse(responses as never, question.key);
  const schema =
    question.kind === 'elicit'
      ? specTypeSchemas.ElicitResult
      : specTypeSchemas.CreateMessageResultWithTools;
  const checked = schema['~standard'].validate(raw);
  const expected = question.kind === 'elicit' ? 'elicit' : 'sampling';
  if (view.kind !== expected || checked instanceof Promise || checked.issues !== undefined) {
    return {
      error: `${what}: the client's answer "${question.key}" is not ${question.kind === 'elicit' ? 'an elicitation result ({ action, content? })' : 'a sampling result ({ role, content, model })'}, received ${describeValue(raw)}`,
    };
  }
  return question.kind === 'elicit'
    ? { kind: 'elicit', result: checked.value as ElicitResult }
    : { kind: 'sample', result: checked.value as Record<string, unknown> };
}
