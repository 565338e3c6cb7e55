/**
 * How `Task.invoke()` folds what went wrong into the tool_result contract: a validator
 * or executor that threw becomes an `isError` result, unless the error must propagate
 * (`throwOnError`, control flow, the caller's own abort).
 */
import { errorMessage, isControlFlow } from '../internal/thrown-value.ts';
import type { ToolResultObject } from './content.ts';
import { capErrorText } from './error-text.ts';
import type { InvokeContext } from './types.ts';

/** The task fields the folding reads. */
interface Folding {
  name: string;
  throwOnError: boolean;
}

/** An `isError` result with `text` kept within the error text limit (decision 059). */
export function errorResult(text: string): ToolResultObject {
  return { content: capErrorText(text), isError: true };
}

/** The result of a validator that threw, or the error itself when it must propagate. */
export function validationThrew(task: Folding, error: unknown): ToolResultObject {
  if (task.throwOnError || isControlFlow(error)) throw error;
  return errorResult(`Invalid arguments for "${task.name}": ${errorMessage(error)}`);
}

/** The result of an executor (or its result) that threw, or the error when it must propagate. */
export function executorThrew(task: Folding, error: unknown, ctx: InvokeContext): ToolResultObject {
  if (task.throwOnError || isControlFlow(error)) throw error;
  if (ctx.signal?.aborted && error === ctx.signal.reason) throw error;
  return errorResult(errorMessage(error));
}
