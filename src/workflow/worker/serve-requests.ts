/**
 * Serving a run's queries and updates (decisions 224–225): when an execution parks, its
 * code waits and its state is settled, so the worker answers the run's open requests
 * from it — a query without writing anything, an update by recording it in the history
 * in the same transaction as its answer (once per update id) — and then parks the run,
 * which takes requests while it waits.
 */
import { errorMessage } from '../../internal/thrown-value.ts';
import type { Execution } from '../context/index.ts';
import { requestArgs } from '../context/index.ts';
import { boundedMessage, type WorkflowErrorCode } from '../errors.ts';
import { toCheckpoint } from '../json-value.ts';
import type {
  HistoryEntry,
  RequestAnswer,
  RunRequest,
  StoredError,
  WaitingOn,
  WorkflowStore,
} from '../types.ts';

/** What serving needs of the worker and the workflow. */
export interface ServeOptions {
  store: WorkflowStore;
  owner: string;
  leaseMs: number;
  maxValueBytes: number;
  maxHistoryEntries: number;
}

/**
 * Answers the run's open requests, then parks it on `waiting`. `'again'` when a handler
 * tried to change the run (this execution's state is then discarded: the run executes
 * again) or a request came meanwhile.
 */
export async function parkServing(
  execution: Execution,
  runId: string,
  waiting: WaitingOn,
  options: ServeOptions,
): Promise<'parked' | 'again' | 'lost'> {
  const { store, owner } = options;
  if (!execution.requests.registered) return store.park(runId, owner, waiting);
  const served = await serveRequests(execution, runId, options);
  if (served !== 'served') return served;
  return store.park(runId, owner, { ...waiting, requests: true });
}

/** Answers each open request of the run in order; stops at a lost lease or a handler that touched `ctx`. */
async function serveRequests(
  execution: Execution,
  runId: string,
  options: ServeOptions,
): Promise<'served' | 'again' | 'lost'> {
  for (const request of await options.store.openRequests(runId)) {
    const { answer, entry, tainted } = answerOf(execution, request, options);
    const lease = await options.store.answerRequest(
      runId,
      options.owner,
      answer,
      entry,
      options.leaseMs,
    );
    if (!lease.held) return 'lost';
    if (tainted) return 'again';
  }
  return 'served';
}

/** A request's answer, the history entry of an applied update, and whether the state is tainted. */
function answerOf(
  execution: Execution,
  request: RunRequest,
  options: ServeOptions,
): { answer: RequestAnswer; entry?: HistoryEntry; tainted?: boolean } {
  const { requestId, kind, name } = request;
  const handlers = execution.requests;
  const fail = (code: WorkflowErrorCode, message: string, tainted = false) => ({
    answer: { requestId, state: 'failed' as const, error: failure(code, message) },
    tainted,
  });
  const spec = kind === 'query' ? handlers.queries.get(name) : handlers.updates.get(name)?.handler;
  if (!spec) {
    const known = [...(kind === 'query' ? handlers.queries : handlers.updates).keys()];
    return fail(
      kind === 'query' ? 'UNKNOWN_QUERY' : 'UNKNOWN_UPDATE',
      `the run registers no ${kind} "${name}"; it registers ${known.map((n) => `"${n}"`).join(', ') || 'none'}`,
    );
  }
  const args = requestArgs(request.args);
  const what = `${kind} "${name}"`;
  const validate = kind === 'update' ? handlers.updates.get(name)?.validate : undefined;
  if (validate) {
    const checked = handlers.call(validate, args);
    if (!checked.ok) {
      const why =
        'touched' in checked ? `it called ${checked.touched}` : errorMessage(checked.threw);
      return fail(
        'UPDATE_REJECTED',
        `${what} was refused by its validator: ${why}`,
        'touched' in checked,
      );
    }
  }
  const outcome = handlers.call(spec, args);
  const code = kind === 'query' ? 'QUERY_FAILED' : 'UPDATE_FAILED';
  if (!outcome.ok && 'touched' in outcome) {
    return fail(
      code,
      `${what} called ${outcome.touched}: a ${kind} handler ${kind === 'query' ? 'reads the run and cannot change it' : 'changes the run\u2019s state synchronously and cannot call ctx'}`,
      true,
    );
  }
  let result: string | undefined;
  try {
    if (outcome.ok)
      result = toCheckpoint(outcome.value, `the result of ${what}`, options.maxValueBytes);
  } catch (error) {
    return fail(code, errorMessage(error), kind === 'update');
  }
  const answer: RequestAnswer = outcome.ok
    ? { requestId, state: 'done', ...(result === undefined ? {} : { result }) }
    : {
        requestId,
        state: 'failed',
        error: failure(code, `${what} threw: ${errorMessage(outcome.threw)}`),
      };
  if (kind === 'query') return { answer };
  return recorded(execution, request, answer, options);
}

/** An applied update's answer with its history entry; `TOO_LARGE` (state discarded) when the history is full. */
function recorded(
  execution: Execution,
  request: RunRequest,
  answer: RequestAnswer,
  options: ServeOptions,
): { answer: RequestAnswer; entry?: HistoryEntry; tainted?: boolean } {
  const engine = execution.requests.engine;
  const seq = engine.nextSeq();
  if (seq > options.maxHistoryEntries) {
    const message = `update "${request.name}" would be checkpoint ${seq} of run "${request.runId}", more than its limit of ${options.maxHistoryEntries} (maxHistoryEntries)`;
    return {
      answer: {
        requestId: request.requestId,
        state: 'failed',
        error: failure('TOO_LARGE', message),
      },
      tainted: true,
    };
  }
  const now = Date.now();
  const entry: HistoryEntry = {
    id: `$update:${request.requestId}`,
    kind: 'update',
    seq,
    state: 'done',
    name: request.name,
    ...(request.args === undefined ? {} : { args: request.args }),
    blockedOn: engine.blockedIds,
    ...(answer.result === undefined ? {} : { value: answer.result }),
    ...(answer.error ? { error: answer.error } : {}),
    startedAt: now,
    endedAt: now,
  };
  return { answer, entry };
}

/** A request's failure as the store keeps it. */
const failure = (code: WorkflowErrorCode, message: string): StoredError => ({
  name: 'WorkflowError',
  code,
  message: boundedMessage(message),
});
