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
  | { kind: 'roots'; result: Record<string, unknown> }
  | { error: string };

/** One input request of a round: its key on the wire and what it asks. */
interface AskedInput {
  key: string;
  kind: 'elicit' | 'sample' | 'roots';
}

const WHAT = { elicit: 'ctx.elicit', sample: 'ctx.sample', roots: 'ctx.listRoots' } as const;
const EXPECTED = {
  elicit: { view: 'elicit', shape: 'an elicitation result ({ action, content? })' },
  sample: { view: 'sampling', shape: 'a sampling result ({ role, content, model })' },
  roots: { view: 'roots', shape: 'a roots list ({ roots: [{ uri, name? }] })' },
} as const;
const SCHEMA = {
  elicit: specTypeSchemas.ElicitResult,
  sample: specTypeSchemas.CreateMessageResultWithTools,
  roots: specTypeSchemas.ListRootsResult,
} as const;

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
  readonly #responses: unknown;
  readonly #pending: { key: string; request: InputRequest }[] = [];
  /** The keys this run asked or read, each once. */
  readonly #keys = new Set<string>();
  #next = 0;

  /**
   * `recorded`: the answers of earlier rounds (from the sealed state); `responses`: the
   * `inputResponses` of this request, read by key as the run asks.
   */
  constructor(recorded: readonly RecordedInput[], responses: unknown) {
    this.#recorded = [...recorded];
    this.#responses = responses;
  }

  /** `ctx.sample`'s request to the client: the recorded answer, or asked (and this run stops). */
  sample = (params: CreateMessageRequest['params'], key?: string): Promise<unknown> =>
    this.#ask('sample', key, () => inputRequired.createMessage(params));

  /** `ctx.elicit`'s request to the client: the recorded answer, or asked (and this run stops). */
  elicit = (params: FormParams, key?: string): Promise<unknown> =>
    this.#ask('elicit', key, () => inputRequired.elicit(params as never));

  /** `ctx.listRoots`'s request to the client: the recorded answer, or asked (and this run stops). */
  listRoots = (key?: string): Promise<unknown> =>
    this.#ask('roots', key, () => inputRequired.listRoots());

  /** The answers recorded so far, to seal into the state of the next round. */
  recorded(): RecordedInput[] {
    return [...this.#recorded];
  }

  /** What this run asked and waits for, by key: the next round's input requests; `undefined` when none. */
  pending(): Record<string, InputRequest> | undefined {
    if (this.#pending.length === 0) return undefined;
    return Object.fromEntries(this.#pending.map(({ key, request }) => [key, request]));
  }

  async #ask(
    kind: AskedInput['kind'],
    key: string | undefined,
    request: () => InputRequest,
  ): Promise<unknown> {
    const index = this.#next++;
    const what = WHAT[kind];
    const name = key ?? `fino.input.${index}`;
    checkKey(what, key, this.#keys);
    this.#keys.add(name);
    const recorded = this.#recorded[index] ?? this.#answered({ key: name, kind }, index);
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
    this.#pending.push({ key: name, request: request() });
    throw new InputRequiredSignal(
      `${what}: waiting for the client's answer (MCP 2026-07-28 input required); the call runs again with it`,
    );
  }

  /** The client's answer to request `index` in this request's responses, recorded; `undefined` when none. */
  #answered(question: AskedInput, index: number): RecordedInput | undefined {
    if (index >= MAX_CALL_INPUTS) return undefined; // past the limit nothing is read
    const answer = answerTo(question, this.#responses, JSON.stringify(this.#recorded).length);
    if (answer !== undefined) this.#recorded[index] = answer;
    return answer;
  }
}

/** Throws a `TypeError` for a `key` the wire cannot take or this run already used. */
function checkKey(what: string, key: string | undefined, used: ReadonlySet<string>): void {
  if (key === undefined) return;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key) || RESERVED_KEYS.has(key)) {
    throw new TypeError(
      `${what}: key: expected 1 to 64 letters, digits, '_', '.' or '-' (not "approval" or "answer"), received ${describeValue(key)}`,
    );
  }
  if (used.has(key)) throw new TypeError(`${what}: key: "${key}" is already used in this call`);
}

/** The recorded form of the client's answer to `question`; `undefined` when it sent none. */
function answerTo(
  question: AskedInput,
  responses: unknown,
  recordedBytes: number,
): RecordedInput | undefined {
  const raw = (responses as Record<string, unknown> | undefined)?.[question.key];
  if (raw === undefined || raw === null) return undefined;
  const what = WHAT[question.kind];
  const bytes = JSON.stringify(raw).length;
  if (recordedBytes + bytes > MAX_CALL_INPUT_BYTES) {
    return {
      error: `${what}: the client's answer "${question.key}" takes ${bytes} bytes, more than the ${MAX_CALL_INPUT_BYTES} bytes a call's answers may take together`,
    };
  }
  const view = inputResponse(responses as never, question.key);
  const checked = SCHEMA[question.kind]['~standard'].validate(raw);
  const expected = EXPECTED[question.kind];
  if (view.kind !== expected.view || checked instanceof Promise || checked.issues !== undefined) {
    return {
      error: `${what}: the client's answer "${question.key}" is not ${expected.shape}, received ${describeValue(raw)}`,
    };
  }
  return question.kind === 'elicit'
    ? { kind: 'elicit', result: checked.value as ElicitResult }
    : { kind: question.kind, result: checked.value as Record<string, unknown> };
}
