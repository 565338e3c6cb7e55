/**
 * Recording a run's events while this worker drives it (`session({ events })`): each
 * event is serialised as it happens and held in a batch, written in one lease-fenced
 * transaction every {@link FLUSH_INTERVAL_MS}, before each stored checkpoint and before
 * the run's end is stored (decision 250); this process's followers are woken after each
 * write. A failed write is tried again with the next one; a lost lease ends recording.
 */
import type { AgentEvent, RunResult } from '../agent/index.ts';
import { notifyRunEvents } from './event-notifier.ts';
import type { EventLimits, NewRunEvent, ResumeReason, RunFinish } from './run-event-types.ts';
import type { Store, StoredRun } from './types.ts';

/** The longest an event waits in this process before it is written (decision 250). */
export const FLUSH_INTERVAL_MS = 50;

/** What the driver does with a run's recorder. */
export interface RunRecorder {
  /** Holds `event` for the next write (the run option `onEvent`). */
  record(event: AgentEvent): void;
  /** Writes what is held, after the writes under way; never throws. */
  flush(): Promise<void>;
  /** Stops the timer; nothing more is recorded. */
  stop(): void;
}

/** Why a claimed run's drive began: a takeover when its last worker's lease had expired. */
export const resumeReason = (run: StoredRun): ResumeReason =>
  run.claimedFrom === 'running' ? 'takeover' : 'continue';

/**
 * A recorder of `runId`'s events, which `owner` holds, into `store` within `limits`;
 * it starts with a `run-resumed` marker when `resumed` says why this drive is not the first.
 */
export function runRecorder(
  store: Store,
  runId: string,
  owner: string,
  limits: EventLimits,
  resumed?: ResumeReason,
): RunRecorder {
  let batch: NewRunEvent[] = [];
  let batchBytes = 0;
  let overflowed = false;
  let ended = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();

  const hold = (type: string, value: unknown) => {
    if (ended) return;
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      // an event with no JSON form (a BigInt in a progress payload) cannot be stored
    }
    if (json === undefined) return;
    if (type !== 'finish' && (overflowed || batchFull(json))) {
      if (overflowed) return;
      overflowed = true; // the store is not taking writes: its log would be full by now
      type = 'events-truncated';
      json = JSON.stringify({ type });
    }
    batch.push({ at: Date.now(), type, json });
    batchBytes += json.length;
    timer ??= setTimeout(() => void flush(), FLUSH_INTERVAL_MS);
    timer.unref?.();
  };
  const batchFull = (json: string) =>
    batch.length + 1 >= limits.maxEvents || batchBytes + json.length > limits.maxBytes;

  const write = async () => {
    clearTimeout(timer);
    timer = undefined;
    const events = batch;
    if (events.length === 0 || ended) return;
    batch = [];
    batchBytes = 0;
    try {
      if (await store.appendEvents(runId, owner, events, limits)) notifyRunEvents(store, runId);
      else stop(); // another worker holds the run now: this one writes nothing more
    } catch {
      batch = [...events, ...batch]; // the database failed: tried again with the next write
      batchBytes = batch.reduce((sum, event) => sum + event.json.length, 0);
    }
  };
  const flush = () => {
    writing = writing.then(write);
    return writing;
  };
  const stop = () => {
    ended = true;
    clearTimeout(timer);
    timer = undefined;
    batch = [];
  };

  if (resumed) hold('run-resumed', { type: 'run-resumed', reason: resumed });
  return {
    record: (event) =>
      hold(
        event.type,
        event.type === 'finish' ? { type: 'finish', result: finishOf(event.result) } : event,
      ),
    flush,
    stop,
  };
}

/** A drive's result as the log keeps it: without state, messages and steps (decision 250). */
function finishOf(result: RunResult): RunFinish {
  if (result.status === 'suspended') {
    return { status: 'suspended', agent: result.agent, pending: result.pending };
  }
  const { agent, text, output, usage } = result;
  return { status: 'done', agent, text, ...(output !== undefined && { output }), usage };
}
