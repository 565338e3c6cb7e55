/**
 * `SuspendSignal` and the two forms a suspension is asked for.
 */

import { describeValue } from '../internal/describe-value.ts';
import { checkOptionalType, typeError } from '../internal/option-type.ts';
import type { SuspendRequest } from './types.ts';

/**
 * Signals that execution should suspend instead of fail.
 *
 * Throwing a `SuspendSignal` (directly or via `ToolRunContext.suspend()`) tells the
 * surrounding agent, session or workflow harness to pause the run and wait for external
 * input — an approval decision, a human answer, a webhook — rather than treat the tool
 * call as an error. `Tool.invoke()` recognises it by name and always rethrows it,
 * bypassing both the `isError` conversion and `throwOnError`.
 *
 * The message defaults to `'Suspended'`. Attach a `payload` with whatever the resuming
 * side needs to present or resolve the suspension. Both the positional form
 * `new SuspendSignal(reason, payload)` and the object form
 * `new SuspendSignal({ reason, payload })` (the fino runtime's) are accepted.
 *
 * Declared in `fino:task` (a task's `ctx.suspend()` throws it) and re-exported by
 * `fino:ai/tool`, where the specification documents it.
 *
 * @example
 * ```ts
 * import { SuspendSignal } from 'fino:ai/tool';
 *
 * throw new SuspendSignal('needs approval', { action: 'delete', target: 'prod-db' });
 * throw new SuspendSignal({ reason: 'needs approval', payload: { target: 'prod-db' } });
 * ```
 */
export class SuspendSignal extends Error {
  override readonly name = 'SuspendSignal';
  /** What the resuming side needs to present or resolve the suspension. */
  readonly payload: unknown;

  constructor(reasonOrRequest?: string | SuspendRequest, payload?: unknown) {
    const [reason, data] = suspendArguments(reasonOrRequest, payload);
    super(reason ?? 'Suspended');
    this.payload = data;
  }
}

/**
 * The `[reason, payload]` of a suspension given positionally (`'why', payload`) or as
 * one object (`{ reason, payload }`). Throws a `TypeError` naming what was wrong for a
 * reason that is not a string, an object with other keys, or a payload given both ways.
 */
export function suspendArguments(
  reasonOrRequest: unknown,
  payload: unknown,
): [reason: string | undefined, payload: unknown] {
  if (reasonOrRequest === undefined || typeof reasonOrRequest === 'string') {
    return [reasonOrRequest, payload];
  }
  if (
    typeof reasonOrRequest !== 'object' ||
    reasonOrRequest === null ||
    Array.isArray(reasonOrRequest)
  ) {
    throw new TypeError(
      `suspend: expected a reason string or { reason?, payload? }, received ${describeValue(reasonOrRequest)}`,
    );
  }
  const unknownKeys = Object.keys(reasonOrRequest).filter(
    (key) => key !== 'reason' && key !== 'payload',
  );
  if (unknownKeys.length > 0) {
    throw new TypeError(
      `suspend: expected { reason?, payload? }, received an object with ${unknownKeys.length === 1 ? 'key' : 'keys'} ${unknownKeys
        .slice(0, 5)
        .map((key) => JSON.stringify(key))
        .join(', ')}; put your data in payload`,
    );
  }
  if (payload !== undefined) {
    throw new TypeError(
      'suspend: the payload was given twice, in { reason, payload } and as a second argument; give it once',
    );
  }
  const { reason, payload: data } = reasonOrRequest as SuspendRequest;
  checkOptionalType(reason, 'string', 'suspend: reason', typeError);
  return [reason, data];
}
