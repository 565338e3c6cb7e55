import { AgentError } from '../agent-error.ts';
import { describe } from '../describe.ts';
import { checkStrategyOptions } from './check.ts';
import { defineStrategy } from './strategy.ts';
import type { ContextStrategy } from './types.ts';

/** Options of {@link providerManaged}: the provider's own context management, as its API spells it. */
export interface ProviderManagedOptions {
  /**
   * Anthropic context editing, sent as the request's `context_management` (e.g.
   * `{ edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 3 } }] }`).
   * It is a beta: give the model `headers: { 'anthropic-beta': 'context-management-2025-06-27' }`.
   */
  anthropic?: { edits: readonly Record<string, unknown>[] };
  /**
   * OpenAI Responses API truncation, sent as the request's `truncation`: `'auto'` lets
   * the provider drop input items that do not fit (Chat Completions has no such field).
   */
  openai?: { truncation: 'auto' | 'disabled' };
}

/**
 * A context strategy that switches on the provider's own context management on every
 * request, by request options (the fields are passed through as the provider documents
 * them; the agent's own `providerOptions` win on a clash). With it in the list, a request
 * the local strategies could not bring under the budget is sent anyway — the provider
 * trims it — instead of failing with `CONTEXT_OVERFLOW`.
 *
 * @example
 * ```ts
 * import { agent, providerManaged, trimOldest } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const model = scriptedModel(['Hi!']);
 * const bot = agent({
 *   model,
 *   context: {
 *     maxTokens: 100_000,
 *     strategy: [trimOldest(), providerManaged({ openai: { truncation: 'auto' } })],
 *   },
 * });
 * await bot.generate('Hello');
 * console.log(model.requests[0].providerOptions); // { openai: { truncation: 'auto' } }
 * ```
 */
export function providerManaged(options: ProviderManagedOptions): ContextStrategy {
  const where = 'providerManaged(options)';
  const checked = checkStrategyOptions(where, options, ['anthropic', 'openai']);
  const { anthropic, openai } = checked;
  if (anthropic === undefined && openai === undefined) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}: expected { anthropic?: { edits }, openai?: { truncation } } with at least one provider, received ${describe(options)}`,
    );
  }
  if (
    anthropic !== undefined &&
    (anthropic === null ||
      typeof anthropic !== 'object' ||
      !Array.isArray(anthropic.edits) ||
      anthropic.edits.length === 0 ||
      !anthropic.edits.every(
        (e) => e !== null && typeof e === 'object' && typeof e.type === 'string',
      ))
  ) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}.anthropic: expected { edits: [{ type: 'clear_tool_uses_20250919', … }, …] }, received ${describe(anthropic)}`,
    );
  }
  if (
    openai !== undefined &&
    (openai === null ||
      typeof openai !== 'object' ||
      (openai.truncation !== 'auto' && openai.truncation !== 'disabled'))
  ) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}.openai: expected { truncation: 'auto' | 'disabled' }, received ${describe(openai)}`,
    );
  }
  const anthropicFields =
    anthropic === undefined ? undefined : { context_management: structuredClone(anthropic) };
  const openaiFields = openai === undefined ? undefined : { truncation: openai.truncation };
  return defineStrategy('providerManaged', checked, {
    providerSide: true,
    apply({ setProviderOption }) {
      if (anthropicFields) setProviderOption('anthropic', anthropicFields);
      if (openaiFields) setProviderOption('openai', openaiFields);
    },
  });
}
