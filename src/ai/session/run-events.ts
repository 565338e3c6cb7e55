/**
 * `Session.events`: a run's recorded events read back from the store, then followed as
 * they are written — woken at once by a worker of this process (`event-notifier.ts`),
 * else by asking the store every `pollMs` — until the run is no longer running or ready
 * and every event is read. Each read takes the run's status first, then its events: the
 * driver writes a run's events before its end, so a status that says the run ended
 * means the events read after it are all of them.
 */
import { describeValue } from '../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../internal/known-keys.ts';
import { SessionError } from './errors.ts';
import { onRunEvents } from './event-notifier.ts';
import type { RunEvent } from './run-event-types.ts';
import type { EventsOptions, Session } from './session-api.ts';
import { checkRunId, type SessionCore } from './session-core.ts';
import type { Store } from './types.ts';

/** How often a follower asks the store by default, in milliseconds. */
export const DEFAULT_POLL_MS = 250;
const MIN_POLL_MS = 10;
const MAX_POLL_MS = 60_000;
/** The most events one read of the store returns. */
const PAGE = 256;

/** The `events` method of a session over `core`. */
export function sessionEvents({ store }: SessionCore): Pick<Session, 'events'> {
  return {
    events(runId, options = {}) {
      checkRunId(runId, 'events');
      const checked = checkEventsOptions(options);
      return { [Symbol.asyncIterator]: () => followEvents(store, runId, checked) };
    },
  };
}

/** The events of `runId` after `after`, followed while the run goes on. */
async function* followEvents(
  store: Store,
  runId: string,
  options: Required<Omit<EventsOptions, 'signal'>> & Pick<EventsOptions, 'signal'>,
): AsyncGenerator<RunEvent> {
  const { follow, pollMs, signal } = options;
  let after = options.after;
  const wake = wakeUp(store, runId, signal);
  try {
    while (!signal?.aborted) {
      wake.clear();
      const page = await store.readEvents(runId, after, PAGE);
      if (!page) throw new SessionError('NOT_FOUND', `no run with id "${runId}"`, runId);
      for (const event of page.events) {
        if (signal?.aborted) return;
        after = event.seq;
        yield event;
      }
      if (page.events.length > 0) continue; // read on until a read finds none after the status
      if (!follow || (page.status !== 'running' && page.status !== 'ready')) return;
      await wake.next(pollMs);
    }
  } finally {
    wake.end();
  }
}

/**
 * What a follower waits on: this process's notice that events were written, its poll
 * interval, or its signal — whichever comes first. A notice that came while the
 * follower was reading is kept, so it is not missed. `end()` leaves no listener behind.
 */
function wakeUp(store: Store, runId: string, signal: AbortSignal | undefined) {
  let noticed = false;
  let resolve: (() => void) | undefined;
  const wakeNow = () => {
    noticed = true;
    resolve?.();
  };
  const unsubscribe = onRunEvents(store, runId, wakeNow);
  signal?.addEventListener('abort', wakeNow);
  return {
    clear: () => {
      noticed = false;
    },
    next: (pollMs: number) =>
      new Promise<void>((done) => {
        if (noticed) return done();
        const timer = setTimeout(() => resolve?.(), pollMs);
        resolve = () => {
          clearTimeout(timer);
          resolve = undefined;
          done();
        };
      }),
    end: () => {
      resolve?.();
      unsubscribe();
      signal?.removeEventListener('abort', wakeNow);
    },
  };
}

/** `events()`'s options, checked and defaulted; `INVALID_ARGUMENT` naming a bad one. */
function checkEventsOptions(options: EventsOptions) {
  const bad = (message: string) => new SessionError('INVALID_ARGUMENT', `events: ${message}`);
  if (options === null || typeof options !== 'object') {
    throw bad(
      `options: expected { after?, follow?, signal?, pollMs? }, received ${describeValue(options)}`,
    );
  }
  const unknown = unknownKeyMessage('events: options', options, [
    'after',
    'follow',
    'signal',
    'pollMs',
  ]);
  if (unknown) throw new SessionError('INVALID_ARGUMENT', unknown);
  const { after = 0, follow = true, pollMs = DEFAULT_POLL_MS, signal } = options;
  if (!Number.isSafeInteger(after) || after < 0) {
    throw bad(`after: expected a whole number ≥ 0 (a seq), received ${describeValue(after)}`);
  }
  if (typeof follow !== 'boolean')
    throw bad(`follow: expected a boolean, received ${describeValue(follow)}`);
  if (typeof pollMs !== 'number' || !(pollMs >= MIN_POLL_MS && pollMs <= MAX_POLL_MS)) {
    throw bad(
      `pollMs: expected milliseconds from ${MIN_POLL_MS} to ${MAX_POLL_MS}, received ${describeValue(pollMs)}`,
    );
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw bad(`signal: expected an AbortSignal, received ${describeValue(signal)}`);
  }
  return { after, follow, pollMs, signal };
}
