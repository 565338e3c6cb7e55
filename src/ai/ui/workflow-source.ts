/**
 * What `workflowUIChunks` reads a workflow run through (decision 252): the smallest part
 * of `fino:workflow`'s caller API that shows a run live — `workflowRuns(store)` is one,
 * as is anything of the same shape (a wrapper that checks who may see which run).
 */
import { describeValue } from '../../internal/describe-value.ts';
import {
  type ReadStreamOptions,
  type StreamChunk,
  WorkflowError,
  type WorkflowHistoryEntry,
  type WorkflowRun,
} from '../../workflow/index.ts';

/**
 * The runs a page may follow: pass `workflowRuns(store)`. `get` gives the run's status,
 * what it waits on, its output or error, its pending decisions and its audit trail
 * (`NOT_FOUND` for an unknown id); `history` its checkpoints, of which the `emit` ones
 * are its `ctx.emit` events (the event's name in `signal`, as `history` shows it);
 * `readStream` follows one of its streams.
 */
export interface WorkflowUISource {
  get(runId: string): Promise<WorkflowRun>;
  history(runId: string): Promise<WorkflowHistoryEntry[]>;
  readStream(runId: string, name: string, options?: ReadStreamOptions): AsyncIterable<StreamChunk>;
}

const METHODS = ['get', 'history', 'readStream'] as const;

/** `INVALID_ARGUMENT` unless `source` has the methods of a {@link WorkflowUISource}. */
export function checkWorkflowSource(source: unknown): asserts source is WorkflowUISource {
  const isObject = typeof source === 'object' && source !== null;
  const missing = isObject ? METHODS.filter((name) => !hasMethod(source, name)) : METHODS;
  if (missing.length === 0) return;
  throw new WorkflowError(
    'INVALID_ARGUMENT',
    `workflowUIChunks: source: expected workflowRuns(store) (an object with get, history and readStream), received ${isObject ? `an object without ${missing.join(', ')}` : describeValue(source)}`,
  );
}

/** Whether `value[name]` is a function (a throwing getter or a revoked Proxy is not). */
function hasMethod(value: object, name: string): boolean {
  try {
    return typeof (value as Record<string, unknown>)[name] === 'function';
  } catch {
    return false;
  }
}
