/**
 * Calling a task's executor: in a worker when the task is isolated, under its deadline
 * when it has one, else directly; and an asynchronous output folded into the tool_result
 * contract.
 */
import type { ToolResultObject } from './content.ts';
import { withDeadline } from './deadline.ts';
import type { RunContextFromOptions } from './execution-context.ts';
import { type ResolvedIsolation, runIsolated } from './isolation/index.ts';
import { normalizeResult } from './normalize-result.ts';
import { executorThrew } from './tool-result-errors.ts';
import type { InvokeContext, TaskOptions, TaskRunOptions } from './types.ts';

/** What of a task its executor call and its error folding read. */
interface CalledTask {
  readonly name: string;
  readonly timeoutMs: number | undefined;
  readonly throwOnError: boolean;
}

/** Runs `execute` for `task`: isolated in a worker, under the task's deadline, or directly. */
export function callExecutor<Input, Output>(
  task: CalledTask,
  execute: TaskOptions<Input, Output>['run'],
  isolation: ResolvedIsolation | undefined,
  input: Input,
  options: TaskRunOptions,
  context: RunContextFromOptions,
): Output | Promise<Output> {
  if (isolation) {
    const call = { name: task.name, timeoutMs: task.timeoutMs, isolation };
    return runIsolated({ ...call, input, options, context }) as Promise<Output>;
  }
  if (task.timeoutMs === undefined) return execute(input, context);
  return withDeadline(task.name, task.timeoutMs, context.signal, (child) => {
    context.signal = child;
    return execute(input, context);
  });
}

/** The tool result of an executor's asynchronous output, or of what it threw. */
export async function settleAsync(
  task: CalledTask,
  output: PromiseLike<unknown>,
  context: RunContextFromOptions,
  ctx: InvokeContext,
): Promise<ToolResultObject> {
  try {
    return normalizeResult(task.name, await output, context.written);
  } catch (error) {
    return executorThrew(task, error, ctx);
  }
}
