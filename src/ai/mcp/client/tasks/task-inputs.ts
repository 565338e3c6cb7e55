/**
 * The server's requests for a remote task's input (elicitations carrying the task in
 * `_meta["io.modelcontextprotocol/related-task"]`), routed to the local call that follows
 * that task instead of the client-wide `onElicit`. A request nobody waits for yet is
 * held unanswered until the call takes it, its suspended call is resumed in this process,
 * or the server withdraws it. See docs/decisions/098.
 */
import {
  type ElicitRequest,
  type ElicitResult,
  RELATED_TASK_META_KEY,
} from '@modelcontextprotocol/client';

/** One unanswered request of a remote task. */
export interface HeldInput {
  /** The elicitation as the server sent it. */
  params: ElicitRequest['params'];
  /** Answers it; later calls do nothing. */
  respond(answer: ElicitResult): void;
}

/** How many unanswered requests one task may have waiting; later ones are declined. */
const MAX_HELD_PER_TASK = 4;

interface Slot {
  /** Local calls following the task. */
  followers: number;
  held: HeldInput[];
  waiter?: (input: HeldInput) => void;
}

/** The tasks this client follows and their waiting input requests. */
export class TaskInputs {
  private readonly slots = new Map<string, Slot>();

  /** Routes the server's requests related to `taskId` to its follower until {@link unfollow}. */
  follow(taskId: string): void {
    const slot = this.slots.get(taskId);
    if (slot) slot.followers++;
    else this.slots.set(taskId, { followers: 1, held: [] });
  }

  /** Ends one follower; requests still held stay until answered or withdrawn. */
  unfollow(taskId: string): void {
    const slot = this.slots.get(taskId);
    if (!slot) return;
    slot.followers--;
    slot.waiter = undefined;
    this.forgetIfIdle(taskId, slot);
  }

  /**
   * Takes an elicitation from the server: the answer's promise when it belongs to a
   * followed task (or one whose call is suspended with a held request), else `undefined`.
   */
  receive(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> | undefined {
    const taskId = relatedTaskId(params);
    const slot = taskId === undefined ? undefined : this.slots.get(taskId);
    if (taskId === undefined || slot === undefined) return undefined;
    if (slot.held.length >= MAX_HELD_PER_TASK) return Promise.resolve({ action: 'decline' });
    return new Promise<ElicitResult>((resolve) => {
      let answered = false;
      const input: HeldInput = {
        params,
        respond: (answer) => {
          if (answered) return;
          answered = true;
          drop();
          resolve(answer);
        },
      };
      const drop = () => {
        slot.held = slot.held.filter((held) => held !== input);
        this.forgetIfIdle(taskId, slot);
      };
      // The server withdrew the request (cancelled or timed out): nothing to answer.
      signal.addEventListener('abort', drop, { once: true });
      const waiter = slot.waiter;
      if (waiter) {
        slot.waiter = undefined;
        waiter(input);
      } else {
        slot.held.push(input);
      }
    });
  }

  /**
   * The next request for `taskId`: one already held, else the first to arrive while
   * `fetch` runs (the `tasks/result` that makes the server deliver it). `undefined` when
   * `fetch` settles or `signal` aborts first.
   */
  async next(
    taskId: string,
    signal: AbortSignal,
    fetch: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<HeldInput | undefined> {
    const slot = this.slots.get(taskId);
    if (!slot || signal.aborted) return undefined;
    const held = slot.held.shift();
    if (held) return held;
    const fetching = new AbortController();
    const stop = () => fetching.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    try {
      return await new Promise<HeldInput | undefined>((resolve) => {
        slot.waiter = resolve;
        const settle = () => {
          if (slot.waiter === resolve) slot.waiter = undefined;
          resolve(undefined);
        };
        fetching.signal.addEventListener('abort', settle, { once: true });
        fetch(fetching.signal).then(settle, settle);
      });
    } finally {
      signal.removeEventListener('abort', stop);
      fetching.abort(); // the request was delivered: stop waiting for the task's end
    }
  }

  /** Holds `input` again, first in line: its call suspended, to be resumed later. */
  hold(taskId: string, input: HeldInput): void {
    this.slots.get(taskId)?.held.unshift(input);
  }

  /** Answers every held request of `taskId` with `cancel` (its task was cancelled). */
  cancel(taskId: string): void {
    const slot = this.slots.get(taskId);
    for (const held of slot?.held.slice() ?? []) held.respond({ action: 'cancel' });
  }

  /**
   * Forgets every task (the client closed). Held requests are left unanswered: the
   * user's answer may still come through another connection, after a resume.
   */
  clear(): void {
    this.slots.clear();
  }

  private forgetIfIdle(taskId: string, slot: Slot): void {
    if (slot.followers <= 0 && slot.held.length === 0 && this.slots.get(taskId) === slot) {
      this.slots.delete(taskId);
    }
  }
}

/** The task a request says it belongs to, read from own properties only. */
export function relatedTaskId(params: unknown): string | undefined {
  const meta = ownProperty(params, '_meta');
  const related = ownProperty(meta, RELATED_TASK_META_KEY);
  const taskId = ownProperty(related, 'taskId');
  return typeof taskId === 'string' ? taskId : undefined;
}

function ownProperty(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
