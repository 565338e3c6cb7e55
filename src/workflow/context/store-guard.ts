/**
 * The store as an execution reaches it: a database failure (`STORE_UNAVAILABLE`, after
 * the SQL layer's retries and its resolution of unknown commits) ends the execution, never
 * the run. The operation that met it does not return — the run's code never sees the
 * failure, so it cannot end the run as `error` — and the worker leaves the run to be
 * claimed again from its last checkpoint (decisions 102 and 170).
 */
import { WorkflowError } from '../errors.ts';
import type { WorkflowStore } from '../types.ts';

/** Whether `error` says the database failed, not the run. */
export const isStoreUnavailable = (error: unknown): error is WorkflowError =>
  error instanceof WorkflowError && error.code === 'STORE_UNAVAILABLE';

/**
 * `store`, whose methods call `unavailable` with a database failure and then never
 * settle, instead of rejecting with it; every other result and error passes through.
 */
export function guardStore(
  store: WorkflowStore,
  unavailable: (error: WorkflowError) => void,
): WorkflowStore {
  const guard = (error: unknown): never | Promise<never> => {
    if (!isStoreUnavailable(error)) throw error;
    unavailable(error);
    return new Promise<never>(() => {});
  };
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        return result instanceof Promise ? result.catch(guard) : result;
      };
    },
  });
}
