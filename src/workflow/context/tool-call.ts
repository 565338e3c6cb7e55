/** `ctx.call`: a tool or task called durably inside a workflow, approvals included. */
import { setTimeout as delay } from 'node:timers/promises';
import { type PendingCall, pendingCall } from '../../ai/agent/index.ts';
import { controlFlowName, errorMessage } from '../../internal/thrown-value.ts';
import type { ToolResultObject } from '../../task/index.ts';
import { stepFailure, WorkflowError } from '../errors.ts';
import { endSpan } from '../telemetry.ts';
import type { HistoryEntry } from '../types.ts';
import type { Callable, CallOptions } from './context-types.ts';
import { runAsEffect } from './effect-scope.ts';
import { suspendOn } from './pending-decisions.ts';
import { never, type ReplayEngine } from './replay-engine.ts';
import { retriesAfter, retryDelay, retryPolicy } from './retry.ts';

/**
 * `ctx.call(tool, args, { id, retry })`: invokes a fino Tool or Task once with the
 * tool_result contract, parking the run on a pending decision for an approval or a
 * suspension, and checkpoints its result.
 */
export async function call(
  engine: ReplayEngine,
  tool: Callable,
  args: unknown,
  options?: CallOptions,
): Promise<ToolResultObject> {
  if (!tool || typeof tool.invoke !== 'function' || typeof tool.name !== 'string') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      'ctx.call(tool): expected a fino Tool or Task (with a name and invoke())',
    );
  }
  const id = engine.autoId(options?.id, 'call', tool.name, 'ctx.call');
  const where = `call "${id}" of tool "${tool.name}"`;
  const retry = retryPolicy(options?.retry, `ctx.call("${id}")`);
  const saved = engine.meet(id, 'call');
  if (saved?.state === 'done') return engine.replay(saved) as ToolResultObject;
  if (engine.cancelling && (saved || !engine.cancelDelivered)) throw engine.deliverCancel();
  if (!saved && !(await engine.beginLive(id, 'call'))) return never();
  if (saved) engine.enterLive();
  const span = engine.span('call', id, { 'gen_ai.tool.name': tool.name });
  try {
    const progress = (saved ? engine.savedValue(saved) : { round: 0 }) as {
      round: number;
      decisionId?: string;
    };
    const base = {
      id,
      kind: 'call' as const,
      seq: saved?.seq ?? engine.nextSeq(),
      startedAt: saved?.startedAt ?? Date.now(),
    };
    let resume: { resumeValue?: unknown } = {};
    if (progress.decisionId) {
      const decision = (await engine.deps.store.decisions(engine.runId, [progress.decisionId])).get(
        progress.decisionId,
      );
      if (!decision) return engine.waitFor(id, [progress.decisionId]);
      if ('reject' in decision) {
        const rejected = {
          content: `Tool call "${tool.name}" was rejected: ${decision.reject}`,
          isError: true,
        };
        return (await engine.settle({
          ...base,
          state: 'done',
          value: JSON.stringify(rejected),
          endedAt: Date.now(),
        })) as ToolResultObject;
      }
      if ('resume' in decision) resume = { resumeValue: decision.resume };
    } else if (tool.requiresApproval === true) {
      const call = decisionOn('approval', progress.round + 1, id, tool, args);
      return suspendOn(engine, { ...base, state: 'waiting' }, progress.round + 1, [call]);
    }
    const entry: HistoryEntry = { ...base, state: 'done' };
    for (let attempt = 1; ; attempt++) {
      let result: ToolResultObject;
      try {
        result = await runAsEffect(where, () =>
          tool.invoke(args, {
            signal: engine.signal,
            toolCallId: id,
            runId: engine.runId,
            idempotencyKey: `${engine.runId}:${id}`,
            ...resume,
          }),
        );
      } catch (error) {
        if (controlFlowName(error) === 'SuspendSignal') {
          const { message, payload } = error as { message: string; payload?: unknown };
          const call = decisionOn('suspend', progress.round + 1, id, tool, args, message, payload);
          return suspendOn(engine, { ...base, state: 'waiting' }, progress.round + 1, [call]);
        }
        if (await retriesAfter(retry, attempt, error, engine.stopping)) continue;
        entry.attempts = attempt;
        entry.error = stepFailure(where, errorMessage(error), attempt);
        break;
      }
      if (result.isError === true && attempt < retry.maxAttempts && !engine.stopping) {
        await delay(retryDelay(retry, attempt));
        continue;
      }
      entry.attempts = attempt;
      engine.fill(entry, result, `the result of ${where}`);
      break;
    }
    entry.endedAt = Date.now();
    return (await engine.settle(entry)) as ToolResultObject;
  } finally {
    endSpan(span);
    engine.liveEnded();
  }
}

/** A pending decision on a `ctx.call`: an approval, or a suspension's answer. */
function decisionOn(
  kind: PendingCall['kind'],
  round: number,
  id: string,
  tool: Callable,
  args: unknown,
  reason?: string,
  payload?: unknown,
): { decisionId: string; call: PendingCall } {
  const decisionId = round === 1 ? id : `${id}#${round}`;
  const init = { kind, toolCallId: decisionId, toolName: tool.name, args, reason, payload };
  return { decisionId, call: pendingCall(init, tool) };
}
