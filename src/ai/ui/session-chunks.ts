/**
 * A session run as one UI message, from the events the session recorded: what a page
 * reconnecting to a run (`resumeStream`) or following a decision's continuation reads,
 * on any process that shares the store.
 */
import type { RecordedAgentEvent, RunEvent, Session, SessionRun } from '../session/index.ts';
import { uiChunkMapper } from './chunk-mapper.ts';
import type { UIMessageChunk } from './types.ts';

/** Options of {@link sessionUIChunks}. */
export interface SessionUIOptions {
  /**
   * Send only the chunks of events after this `seq` (default 0: the whole run, what a
   * reconnect replays). The earlier events still pass through the mapper, so part ids,
   * approvals and usage stay those of the whole message.
   */
  after?: number;
  /** The assistant message's id (default: the run's id). */
  messageId?: string;
  /** The thread the run continues, sent in the message metadata. */
  threadId?: string;
  /** Aborting it ends the chunks (without an error). */
  signal?: AbortSignal;
  /** How often the store is asked for new events (see `Session.events`). */
  pollMs?: number;
}

/** What {@link sessionUIChunks} reads of a session: its recorded events and its runs. */
export type SessionUISource = Pick<Session, 'events' | 'get'>;

/**
 * The chunks of one assistant UI message for the session run `runId`, from the events
 * the session recorded (`session({ events: true })`), live until the run stops: the
 * stream a page reconnects to, from this process or another one over the same store.
 * A run that ended without a `finish` event (an error, a cancellation) ends with the
 * chunks of its failure. When a worker took the run over and redid the step its dead
 * predecessor had begun, the step's parts so far are dropped (`reset-step`) so that the
 * message does not show them twice.
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { memoryStore, session } from 'fino:ai/session';
 * import { sessionUIChunks } from 'fino:ai/ui';
 *
 * const store = memoryStore();
 * const runs = session({ store, agent: agent({ model: scriptedModel(['Hello!']) }), events: true });
 * const run = await runs.start('Hi');
 * const types: string[] = [];
 * for await (const chunk of sessionUIChunks(runs, run.runId)) types.push(chunk.type);
 * console.log(types.join(' ')); // start start-step text-start text-delta text-end finish-step finish
 * await store.close();
 * ```
 */
export async function* sessionUIChunks(
  source: SessionUISource,
  runId: string,
  options: SessionUIOptions = {},
): AsyncGenerator<UIMessageChunk> {
  const { after = 0, signal, pollMs } = options;
  if (!Number.isSafeInteger(after) || after < 0) {
    throw new RangeError(
      `sessionUIChunks: expected "after" to be a seq (an integer from 0), received ${String(after)}`,
    );
  }
  const mapper = uiChunkMapper({
    runId,
    ...(options.messageId !== undefined && { messageId: options.messageId }),
    ...(options.threadId !== undefined && { threadId: options.threadId }),
  });
  yield* mapper.start();
  const redo = takeoverRedo();
  let finished = false;
  for await (const { seq, event } of source.events(runId, { signal, pollMs })) {
    const chunks = redo.chunks(event, (agentEvent) => mapper.map(agentEvent));
    finished = event.type === 'finish';
    if (seq > after) yield* chunks;
  }
  if (finished || signal?.aborted) return;
  const run = await source.get(runId);
  if (run) yield* mapper.fail(failureOf(run));
}

/**
 * Watches for a takeover that redoes a step: after a `run-resumed` marker for a
 * `takeover`, a `step-start` of the step already begun closes it, drops its parts
 * (`reset-step`) and goes on in the same step (no second `start-step`).
 */
function takeoverRedo() {
  let takenOver = false;
  let currentStep: number | undefined;
  return {
    chunks(
      event: RunEvent['event'],
      map: (event: RecordedAgentEvent) => UIMessageChunk[],
    ): UIMessageChunk[] {
      if (event.type === 'run-resumed') {
        takenOver = event.reason === 'takeover';
        return [];
      }
      if (event.type === 'events-truncated') return [];
      const redoing = takenOver && event.type === 'step-start' && event.step === currentStep;
      if (event.type === 'step-start') {
        currentStep = event.step;
        takenOver = false;
      }
      const chunks = map(event);
      if (!redoing) return chunks;
      return [...chunks.filter((chunk) => chunk.type !== 'start-step'), { type: 'reset-step' }];
    },
  };
}

/** How a run that stopped without a `finish` event failed, as the mapper reports it. */
function failureOf(run: SessionRun): unknown {
  if (run.status === 'cancelled') {
    return Object.assign(new Error(`run "${run.runId}" was cancelled`), { name: 'AbortError' });
  }
  const error = run.status === 'error' ? run.error : `run "${run.runId}" stopped ${run.status}`;
  const code = run.status === 'error' ? (run.code ?? 'RUN_FAILED') : 'RUN_STOPPED';
  return Object.assign(new Error(error), { code });
}
