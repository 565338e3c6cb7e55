import { formatIssues, type Issue } from '../../validate/index.ts';
import type { GenerateResult } from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import type { AgentConfig } from './options.ts';

/**
 * The run's final answer failed the agent's `output` schema, after its one repair turn:
 * an {@link AgentError} with the code `INVALID_OUTPUT`.
 *
 * @example
 * ```ts
 * import { AgentOutputError, agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { v } from 'fino:validate';
 *
 * const bot = agent({
 *   model: scriptedModel(['not json', 'still not json']),
 *   output: v.object({ city: v.string() }),
 * });
 * try {
 *   await bot.generate('Where?');
 * } catch (error) {
 *   if (error instanceof AgentOutputError) console.log(error.issues, error.text);
 * }
 * ```
 */
export class AgentOutputError extends AgentError {
  override readonly name = 'AgentOutputError';

  constructor(
    /** Why the answer failed: the JSON error, or the schema's issues. */
    readonly issues: string,
    /** The model's last answer. */
    readonly text: string,
  ) {
    super(
      'INVALID_OUTPUT',
      `the final answer failed the output schema after one repair turn:\n${issues}`,
    );
  }
}

/** The final answer checked against the agent's output schema: its value, or why it failed. */
export type CheckedOutput = { ok: true; value: unknown } | { ok: false; issues: string };

/** Parses (unless the provider already did) and validates a final answer. */
export async function checkOutput(
  config: AgentConfig,
  turn: GenerateResult,
): Promise<CheckedOutput> {
  let value = turn.output;
  if (value === undefined) {
    try {
      value = JSON.parse(turn.text);
    } catch (error) {
      return { ok: false, issues: `The answer was not JSON (${(error as Error).message}).` };
    }
  }
  const checked = await config.output!.safeParseAsync(value);
  return checked.success
    ? { ok: true, value: checked.value }
    : { ok: false, issues: issuesText(checked.issues) };
}

/** The most issues a repair message lists: enough to repair from, never a huge message. */
export const MAX_REPAIR_ISSUES = 20;

function issuesText(issues: readonly Issue[]): string {
  const listed = formatIssues(issues.slice(0, MAX_REPAIR_ISSUES));
  const more = issues.length - MAX_REPAIR_ISSUES;
  return more > 0
    ? `${listed}
… and ${more} more issues`
    : listed;
}

/** The user message of the repair turn: what was wrong, and what to send instead. */
export function repairMessage(issues: string): string {
  return `Your answer does not match the required output schema:\n${issues}\nAnswer again with JSON that matches the schema, and nothing else.`;
}
