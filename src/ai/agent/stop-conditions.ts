import { AgentError } from './agent-error.ts';
import { describe } from './state.ts';
import type { StepResult } from './types.ts';

/**
 * Decides, after a step whose tool calls are all settled, whether the run stops there
 * instead of asking the model again. A run always stops when the model answers without
 * calling tools.
 */
export type StopCondition = (info: { steps: readonly StepResult[] }) => boolean;

/**
 * Stops the run once `n` steps (model turns) have been taken. The default is `maxSteps(8)`.
 *
 * @example
 * ```ts
 * import { agent, maxSteps } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const bot = agent({ model: scriptedModel(['hi']), stopWhen: maxSteps(3) });
 * console.log((await bot.generate('hello')).status); // 'done'
 * ```
 */
export function maxSteps(n: number): StopCondition {
  if (!Number.isInteger(n) || n < 1) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `maxSteps(n): expected a positive integer, received ${describe(n)}`,
    );
  }
  return ({ steps }) => steps.length >= n;
}
