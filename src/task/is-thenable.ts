/** Whether `value` is a thenable; false when its `then` cannot be read (normalizeResult reports it). */
export const isThenable = (value: unknown): value is PromiseLike<unknown> => {
  // A primitive is never awaited as a thenable (`await` does not read its `then`).
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  try {
    return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
  } catch {
    return false;
  }
};
