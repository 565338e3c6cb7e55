/**
 * `resumeStream()` of a page: the chat's unfinished run streamed again from its first
 * event, then live — from whichever process the request reaches (decision 256).
 */
import type { ChatContext } from './chat-context.ts';

/** The longest a resumed stream waits between two looks at its run's lease. */
const MAX_LEASE_WAIT_MS = 60_000;
/** How long after a lease's expiry it is looked at again: past the clocks' small skew. */
const LEASE_MARGIN_MS = 20;

/**
 * The stream of the run holding the chat's thread, replayed from the start
 * (`DefaultChatTransport` resets the message on a replay); 204 when no run is unfinished.
 * While the page follows it, a run no worker drives — decided but not continued, or its
 * worker's lease expired, now or later (the worker died mid-answer) — is continued by
 * this process.
 */
export async function resumeTurn(context: ChatContext): Promise<Response> {
  const page = await context.session.thread(context.chatId, { limit: 1 });
  const runId = page?.activeRunId;
  const run = runId === undefined ? undefined : await context.session.get(runId);
  if (!run) return new Response(null, { status: 204 });
  context.background(run.runId, takeOverWhenOrphaned(context, run.runId));
  return context.stream(run.runId, 0);
}

/**
 * Continues the run once no worker drives it, looking again when its lease would expire,
 * until it stops (done, suspended, failed) or the page leaves.
 */
async function takeOverWhenOrphaned(context: ChatContext, runId: string): Promise<void> {
  const { session, request } = context;
  while (!request.signal.aborted) {
    const run = await session.get(runId);
    if (!run || (run.status !== 'running' && run.status !== 'ready')) return;
    const expiresAt = run.status === 'ready' ? 0 : Date.parse(run.leaseExpiresAt);
    // An unreadable expiry is looked at again later, never in a tight loop.
    const waitMs = Number.isFinite(expiresAt) ? expiresAt - Date.now() : MAX_LEASE_WAIT_MS;
    if (waitMs <= 0) {
      const after = await session.continue(runId);
      if (after.status !== 'running') return;
      continue;
    }
    await sleep(Math.min(waitMs + LEASE_MARGIN_MS, MAX_LEASE_WAIT_MS), request.signal);
  }
}

/** Waits `ms`, or less when `signal` aborts; the timer does not keep the process alive. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref?.();
    signal.addEventListener('abort', done, { once: true });
  });
}
