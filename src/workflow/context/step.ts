/** `ctx.step(id, fn, { retry })`: a function run live once, its result or failure checkpointed. */

import { errorMessage } from '../../internal/thrown-value.ts';
import { stepFailure, WorkflowError } from '../errors.ts';
import { endSpan } from '../telemetry.ts';
import type { HistoryEntry } from '../types.ts';
import type { StepContext, StepOptions } from './context-types.ts';
import { runAsEffect } from './effect-scope.ts';
import { checkId } from './operation-id.ts';
import { never, type ReplayEngine } from './replay-engine.ts';
import { retriesAfter, retryPolicy } from './retry.ts';

/** Runs `fn` live once (retrying by `options.retry`), or returns its saved result. */
export async function step<T>(
  engine: ReplayEngine,
  id: string,
  fn: (step: StepContext) => T | Promise<T>,
  options?: StepOptions,
): Promise<T> {
  const where = `step "${id}"`;
  checkId(id, 'ctx.step');
  if (typeof fn !== 'function') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `${where}: expected a function to run, received ${typeof fn}`,
    );
  }
  const retry = retryPolicy(options?.retry, `ctx.step("${id}")`);
  const saved = engine.meet(id, 'step');
  if (saved) return engine.replay(saved) as T;
  if (!(await engine.beginLive(id, 'step'))) return never();
  const span = engine.span('step', id);
  let failure: unknown;
  try {
    if (engine.cancelling && !engine.cancelDelivered) throw engine.deliverCancel();
    const entry: HistoryEntry = {
      id,
      kind: 'step',
      seq: engine.nextSeq(),
      state: 'done',
      startedAt: Date.now(),
    };
    for (let attempt = 1; ; attempt++) {
      let value: unknown;
      try {
        value = await runAsEffect(where, () =>
          fn({ attempt, signal: engine.signal, idempotencyKey: `${engine.runId}:${id}` }),
        );
      } catch (error) {
        if (await retriesAfter(retry, attempt, error, engine.stopping)) continue;
        entry.attempts = attempt;
        entry.error = stepFailure(where, errorMessage(error), attempt);
        break;
      }
      entry.attempts = attempt;
      engine.fill(entry, value, `the result of ${where}`);
      break;
    }
    entry.endedAt = Date.now();
    if (entry.attempts !== undefined) span?.setAttribute('fino.workflow.attempts', entry.attempts);
    failure = entry.error?.message;
    if (!(await engine.write(entry))) return never();
    return engine.replay(entry) as T;
  } finally {
    endSpan(span, failure);
    engine.liveEnded();
  }
}
