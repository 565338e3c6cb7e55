import type { ModelMessage } from '../../model/index.ts';

/**
 * The messages one request will send, as a view over the run's `state.messages` (which
 * keep everything): which are left out, which are sent with their tool results cleared,
 * and the running token estimate. Strategies change it; `messages()` builds the request.
 *
 * The shape it keeps valid for every provider: the latest user message (`pinned`) and
 * system-role messages are always sent; the messages after the latest user message are
 * the run's tool loop, dropped a whole pair (assistant turn + its tool results) at a time;
 * before it, whole exchanges (a user message up to the next one) are dropped, so what is
 * sent starts with a user message and never splits a `tool_use` from its `tool_result`.
 * The last unit (the latest model turn and the results it waits on) is never dropped.
 */
export class ContextWindow {
  readonly all: readonly ModelMessage[];
  readonly budget: number;
  /** Index of the latest user message that is not tool results (-1 when there is none). */
  readonly latestUser: number;
  /** Where the protected tail starts: the last unit, never dropped or cleared. */
  readonly tail: number;
  readonly #sent: Uint8Array;
  readonly #replaced = new Map<number, ModelMessage>();
  readonly #measure: (message: ModelMessage) => number;
  #fixed: number;
  #total: number;
  #cleared = 0;

  constructor(
    all: readonly ModelMessage[],
    budget: number,
    fixed: number,
    measure: (message: ModelMessage) => number,
  ) {
    this.all = all;
    this.budget = budget;
    this.#measure = measure;
    this.#fixed = fixed;
    this.#sent = new Uint8Array(all.length).fill(1);
    this.latestUser = findLatestUser(all);
    this.tail = lastUnitStart(all);
    let total = fixed;
    for (const message of all) total += measure(message);
    this.#total = total;
  }

  /** Estimated input tokens of the request as it stands. */
  get tokens(): number {
    return this.#total;
  }

  fits(): boolean {
    return this.#total <= this.budget;
  }

  /** Tokens outside the messages (system prompt, summary, tools) changed to `fixed`. */
  setFixed(fixed: number): void {
    this.#total += fixed - this.#fixed;
    this.#fixed = fixed;
  }

  /** Whether the message at `index` is always sent (latest user message, system role). */
  isPinned(index: number): boolean {
    return index === this.latestUser || this.all[index].role === 'system';
  }

  isSent(index: number): boolean {
    return this.#sent[index] === 1;
  }

  /** How many messages of the state are not sent. */
  get dropped(): number {
    let n = 0;
    for (const flag of this.#sent) if (flag === 0) n++;
    return n;
  }

  /** Leaves the message at `index` out (pinned messages stay). */
  drop(index: number): void {
    if (this.#sent[index] === 0 || this.isPinned(index)) return;
    this.#sent[index] = 0;
    this.#total -= this.#measure(this.current(index));
  }

  /** The message at `index` as it will be sent (with cleared results, if any). */
  current(index: number): ModelMessage {
    return this.#replaced.get(index) ?? this.all[index];
  }

  /** Sends `message`, with `cleared` more tool results cleared, in place of the one at `index`. */
  replace(index: number, message: ModelMessage, cleared: number): void {
    if (this.#sent[index] === 1) {
      this.#total += this.#measure(message) - this.#measure(this.current(index));
    }
    this.#replaced.set(index, message);
    this.#cleared += cleared;
  }

  /** How many tool results are sent as placeholders. */
  get cleared(): number {
    return this.#cleared;
  }

  /** The messages to send, in order. */
  messages(): ModelMessage[] {
    const out: ModelMessage[] = [];
    for (let i = 0; i < this.all.length; i++) if (this.#sent[i] === 1) out.push(this.current(i));
    return out;
  }

  /**
   * The droppable units, oldest first, each a `[from, to)` range of indices, from `start`
   * up to the protected tail: whole exchanges before the latest user message, then
   * single messages or assistant + tool-results pairs after it.
   */
  units(start = 0): Array<[number, number]> {
    const units: Array<[number, number]> = [];
    const end = this.tail;
    let i = start;
    const before = Math.min(Math.max(this.latestUser, 0), end);
    while (i < before) {
      let j = i + 1;
      while (j < before && !isUserTurn(this.all[j])) j++;
      units.push([i, j]);
      i = j;
    }
    if (i === this.latestUser) i++;
    while (i < end) {
      const j = i + 1 < end && answersTools(this.all[i + 1]) ? i + 2 : i + 1;
      units.push([i, j]);
      i = j;
    }
    return units;
  }
}

/** A user message that is not (only) tool results: where an exchange starts. */
export function isUserTurn(message: ModelMessage): boolean {
  return message.role === 'user' && !answersTools(message);
}

/** A user message carrying tool results (the answer to the assistant turn before it). */
export function answersTools(message: ModelMessage | undefined): boolean {
  return (
    message?.role === 'user' &&
    Array.isArray(message.content) &&
    message.content.some((part) => part.type === 'tool_result')
  );
}

function findLatestUser(all: readonly ModelMessage[]): number {
  for (let i = all.length - 1; i >= 0; i--) if (isUserTurn(all[i])) return i;
  return -1;
}

/** Where the last unit starts: the last message, or the assistant turn its tool results answer. */
function lastUnitStart(all: readonly ModelMessage[]): number {
  const last = all.length - 1;
  if (last > 0 && answersTools(all[last]) && all[last - 1].role === 'assistant') return last - 1;
  return Math.max(last, 0);
}
