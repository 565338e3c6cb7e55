/**
 * One run of a task's tool: the approval gate before it, the call itself, and the outcome
 * it leaves — completed with a result, waiting for input, or failed (decision 095, point 4).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { controlFlowName, errorMessage } from '../../../../internal/thrown-value.ts';
import type { AnyTask, InvokeContext } from '../../../../task/index.ts';
import { type PendingCall, pendingCall } from '../../../agent/index.ts';
import { errorResult, type OutputValidator } from '../../protocol/index.ts';
import { taskApprovalHint } from '../approval-hint.ts';
import { type ApprovalMode, approvalQuestion, checkedResult } from '../call-tool.ts';
import type { ProgressNotifier } from '../progress-notifier.ts';
import { elicitAnswers, type ParkedElicitation, taskElicitation } from './task-elicitation.ts';

/** A served tool as a task needs it. */
export interface TaskTool {
  tool: AnyTask;
  outputValidator: OutputValidator;
}

/** How a task ends a turn of its run. */
export type TaskOutcome =
  | { status: 'completed'; result: CallToolResult }
  | { status: 'input_required'; call: PendingCall; message: string; more?: PendingCall[] }
  | { status: 'failed'; error: string };

/** The id of the one call of a task's run, as `fino sessions approve <taskId> call` names it. */
export const TASK_CALL_ID = 'call';

/** The pending call of a task waiting on `tool` with `args`. */
function taskCall(
  tool: AnyTask,
  args: unknown,
  about: { kind: PendingCall['kind']; reason?: string; payload?: unknown },
  toolCallId = TASK_CALL_ID,
): PendingCall {
  return pendingCall({ ...about, toolCallId, toolName: tool.name, args }, tool);
}

/**
 * What a task whose tool needs approval becomes before it runs: waiting for the approval
 * (its status message says where else it can be given; `db` names the task store), or
 * refused (`approval: 'deny'`); `undefined` when it may run.
 */
export function approvalGate(
  tool: AnyTask,
  args: unknown,
  how: { approval: ApprovalMode; approved: boolean; taskId: string; db: string },
): TaskOutcome | undefined {
  const { approval, approved } = how;
  if (approved || approval === 'client' || !tool.requiresApproval) return undefined;
  if (approval === 'deny') {
    const refused = `Tool "${tool.name}" requires approval, and this server refuses such calls (approval: 'deny'). It was not executed.`;
    return { status: 'completed', result: errorResult(refused) };
  }
  return {
    status: 'input_required',
    call: taskCall(tool, args, { kind: 'approval' }),
    message: `Waiting for approval: ${approvalQuestion(tool, args)} ${taskApprovalHint(how.taskId, how.db)}`,
  };
}

/**
 * Calls the task's tool and answers its outcome; `undefined` when `signal` was aborted
 * (the task was cancelled or taken over: the store says so already).
 */
export async function runTaskTool(
  served: TaskTool,
  taskId: string,
  args: unknown,
  how: { resume?: { resume: unknown }; signal: AbortSignal; progress: ProgressNotifier },
): Promise<TaskOutcome | undefined> {
  const { tool } = served;
  const context: InvokeContext = {
    signal: how.signal,
    toolCallId: taskId,
    runId: taskId,
    idempotencyKey: taskId, // the same across a takeover after a restart: one task, one effect
    step: 0,
    messages: [],
    progress: how.progress.report,
  };
  const answers = elicitAnswers(how.resume?.resume);
  if (how.resume && answers === undefined) context.resumeValue = how.resume.resume;
  const elicitation = taskElicitation(answers ?? []);
  context.elicit = elicitation.elicit;
  try {
    const result = await tool.invoke(args, context);
    await how.progress.flush();
    if (how.signal.aborted) return undefined;
    const parked = elicitation.parked(); // even when the tool caught what ctx.elicit threw
    if (parked.length > 0) return waitingForForms(tool, args, parked);
    return {
      status: 'completed',
      result: checkedResult(tool.name, result, served.outputValidator),
    };
  } catch (error) {
    await how.progress.flush();
    if (how.signal.aborted) return undefined;
    const parked = elicitation.parked();
    if (parked.length > 0) return waitingForForms(tool, args, parked);
    if (controlFlowName(error) === 'SuspendSignal') {
      const question = (error as Error).message || `"${tool.name}" needs your input to continue.`;
      return {
        status: 'input_required',
        call: taskCall(tool, args, {
          kind: 'suspend',
          reason: question,
          payload: (error as { payload?: unknown }).payload,
        }),
        message: question,
      };
    }
    const failure = `Tool "${tool.name}" failed: ${errorMessage(error)}`;
    return { status: 'completed', result: errorResult(failure) };
  }
}

/**
 * A task parked on `ctx.elicit()` forms, one pending call each (`call`, `call.1`, …): its
 * client is asked through `tasks/result` (2025) or `tasks/get` and `tasks/update` (2026).
 */
function waitingForForms(tool: AnyTask, args: unknown, parked: ParkedElicitation[]): TaskOutcome {
  const [call, ...more] = parked.map((form, i) =>
    taskCall(
      tool,
      args,
      { kind: 'suspend', reason: form.elicit.message, payload: form },
      i === 0 ? TASK_CALL_ID : `${TASK_CALL_ID}.${i}`,
    ),
  );
  const { message } = parked[0].elicit;
  return { status: 'input_required', call, message, ...(more.length > 0 ? { more } : {}) };
}
