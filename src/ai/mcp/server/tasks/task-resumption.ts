/**
 * What a task claimed again does next: one that was decided (approved, rejected,
 * answered) or interrupted (its server died while it ran, or while it waited in the
 * queue). The restart rule of decision 096: only a tool declared idempotent runs again
 * after it may have partly run; a queued task never started, so it starts (decision 116).
 */
import type { StoredRun } from '../../../session/index.ts';
import { errorResult } from '../../protocol/index.ts';
import { combinedDecision } from './task-elicitation.ts';
import type { TaskOutcome } from './task-execution.ts';

/** How a claimed task goes on: it ends with an outcome, or its tool runs. */
export type TaskResumption =
  | { finish: TaskOutcome }
  | { execute: { approved: boolean; resume?: { resume: unknown } } };

/** The status message of a task waiting for a running slot (it has not started). */
export const QUEUED_MESSAGE = 'Queued, not started yet: waiting for a free slot';

/**
 * The next step of the task whose run is `run`, calling `toolName` (declared `idempotent`
 * or not). `interrupted` when its lease expired; `statusMessage` is the one it had then.
 */
export function resumption(
  run: StoredRun,
  task: { toolName: string; statusMessage?: string; idempotent: boolean },
  interrupted: boolean,
): TaskResumption {
  const current = run.pending[run.pending.length - 1];
  const decision = combinedDecision(run.pending) ?? current?.decision;
  const approved =
    current?.call.kind === 'suspend' || (decision !== undefined && 'approve' in decision);
  const resume = decision !== undefined && 'resume' in decision ? decision : undefined;
  const started = interrupted && !task.statusMessage?.startsWith(QUEUED_MESSAGE);
  if (started) {
    if (!task.idempotent) {
      return {
        finish: {
          status: 'failed',
          error:
            'interrupted by a server restart; it may have partly run, and it is not declared idempotent, so it was not run again',
        },
      };
    }
    return { execute: { approved, resume } };
  }
  if (decision !== undefined && 'reject' in decision) {
    const what =
      current.call.kind === 'approval'
        ? `The call to "${task.toolName}" was rejected (${decision.reject}). It was not executed.`
        : `"${task.toolName}" stopped: ${decision.reject}`;
    return { finish: { status: 'completed', result: errorResult(what) } };
  }
  // Decided, or queued and never started: the approval gate runs again for a call that
  // was never approved.
  return { execute: { approved, resume } };
}
