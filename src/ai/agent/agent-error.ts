/**
 * What the agent refused, as a stable `code` a caller can branch on (decision 071):
 *
 * - `INVALID_ARGUMENT`: an option, input, hook, run option or decision of the wrong shape
 *   (`agent()`, `generate()`/`stream()`/`step()`/`resume()`, `asTool()`, `maxSteps()`),
 *   or an approval policy that answered something other than `'allow' | 'deny' | 'ask'`;
 * - `INVALID_TOOL`: a tool the agent cannot offer to a model: a reserved, malformed or
 *   duplicate name;
 * - `INVALID_STATE`: a run state this agent cannot resume: the wrong shape or version;
 * - `INVALID_SIGNATURE`: with `stateSecret`, a state without a valid signature: changed
 *   after the agent signed it, signed with another secret, or never signed (decision 133);
 * - `NOT_PENDING`: a decision for a call that is not waiting for one (unknown, settled,
 *   or cleared to run);
 * - `DECISION_MISMATCH`: the wrong kind of decision for the pending call (`resume` for an
 *   approval, `approve` for a suspension);
 * - `ARGS_MISMATCH`: the call's arguments are not the ones the decision or the pending
 *   entry was made for (its `argsHash` differs);
 * - `INVALID_MODEL_TURN`: the model answered with something that is not a turn (no
 *   assistant message, two tool calls with one id, a stream without a stop event);
 * - `INVALID_OUTPUT`: the final answer failed the `output` schema after its repair turn
 *   (an {@link AgentOutputError});
 * - `CONTEXT_OVERFLOW`: with the `context` option, a request that does not fit
 *   `context.maxTokens` even after every strategy, with only what every request needs
 *   (system prompt, tools, the latest user message, the latest model turn and its
 *   results); thrown before the request is sent;
 * - `BUDGET_EXCEEDED`: the run spent its budget (`maxCost` or `maxTokens`) and stopped
 *   cleanly; the error's `state` resumes it with a higher budget (a `BudgetExceededError`);
 * - `GUARDRAIL_TRIPPED`: a guardrail tripped and stopped the run (a `GuardrailTrippedError`
 *   naming it, where it ran and what it found);
 * - `GUARDRAIL_FAILED`: a guardrail's check threw, hung past its `timeoutMs` or answered
 *   something other than a verdict (a `GuardrailFailedError`): never a pass.
 */
export type AgentErrorCode =
  | 'INVALID_ARGUMENT'
  | 'INVALID_TOOL'
  | 'INVALID_STATE'
  | 'INVALID_SIGNATURE'
  | 'NOT_PENDING'
  | 'DECISION_MISMATCH'
  | 'ARGS_MISMATCH'
  | 'INVALID_MODEL_TURN'
  | 'INVALID_OUTPUT'
  | 'CONTEXT_OVERFLOW'
  | 'BUDGET_EXCEEDED'
  | 'GUARDRAIL_TRIPPED'
  | 'GUARDRAIL_FAILED';

/**
 * The error every refusal of `fino:ai/agent` throws: a bad option, a state it cannot
 * resume, a decision that does not fit, a model turn it cannot use. Branch on `code`,
 * never on the message, whose wording may improve.
 *
 * @example
 * ```ts
 * import { AgentError, agent, type RunState } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const bot = agent({ model: scriptedModel(['hi']) });
 * const saved = JSON.parse('{"version":0}') as RunState; // e.g. read from an old store
 * try {
 *   await bot.resume(saved);
 * } catch (error) {
 *   if (error instanceof AgentError && error.code === 'INVALID_STATE') console.log(error.message);
 *   else throw error;
 * }
 * ```
 */
export class AgentError extends Error {
  override name = 'AgentError';
  readonly code: AgentErrorCode;

  constructor(code: AgentErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
