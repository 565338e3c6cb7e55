/**
 * The two ways a guardrail stops a run: it tripped (`GUARDRAIL_TRIPPED`), or its check
 * failed — threw, hung past its `timeoutMs`, answered something that is not a verdict
 * (`GUARDRAIL_FAILED`). Both name the guardrail and where it ran (decision 195).
 */
import { AgentError } from './agent-error.ts';
import type { GuardrailKind } from './guardrail.ts';
import type { RunState } from './types.ts';

/** The most characters of a guardrail's output an error message shows. */
const SHOWN_OUTPUT_CHARS = 200;

/**
 * A guardrail tripped: the run stopped. `guardrail` is its name, `kind` where it ran,
 * `output` what its check found, `state` the run's state when it stopped (with the
 * trip in `state.guardrails.tripped`; an input trip's discarded model answer is not in
 * its messages, its usage is in `state.usage`).
 *
 * @example
 * ```ts
 * import { agent, GuardrailTrippedError, guardrail } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const bot = agent({
 *   model: scriptedModel(['My card is 4111 1111 1111 1111']),
 *   outputGuardrails: [
 *     guardrail({ name: 'pii', check: (text) => ({ tripped: /\d{4} \d{4}/.test(String(text)), output: 'card number' }) }),
 *   ],
 * });
 * try {
 *   await bot.generate('Say something');
 * } catch (error) {
 *   if (error instanceof GuardrailTrippedError) console.log(error.code, error.guardrail, error.kind); // GUARDRAIL_TRIPPED pii output
 * }
 * ```
 */
export class GuardrailTrippedError extends AgentError {
  override readonly name = 'GuardrailTrippedError';

  constructor(
    readonly guardrail: string,
    readonly kind: GuardrailKind,
    readonly output: unknown,
    readonly state: RunState,
  ) {
    super(
      'GUARDRAIL_TRIPPED',
      `run "${state.runId}" stopped: the ${kind} guardrail "${guardrail}" tripped (output: ${show(output)})`,
    );
  }
}

/**
 * A guardrail's check failed — threw, did not answer within its `timeoutMs`, or answered
 * something other than `{ tripped: boolean }` — so the run stopped: a failed check is
 * never a pass. The thrown value, if any, is the `cause`.
 */
export class GuardrailFailedError extends AgentError {
  override readonly name = 'GuardrailFailedError';

  constructor(
    readonly guardrail: string,
    readonly kind: GuardrailKind,
    why: string,
    options?: ErrorOptions,
  ) {
    super('GUARDRAIL_FAILED', `the ${kind} guardrail "${guardrail}" failed: ${why}`, options);
  }
}

/** A guardrail's output in a message: its JSON, cut short. */
function show(output: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(output) ?? typeof output;
  } catch {
    text = `an unserializable ${typeof output}`;
  }
  return text.length > SHOWN_OUTPUT_CHARS ? `${text.slice(0, SHOWN_OUTPUT_CHARS)}…` : text;
}
