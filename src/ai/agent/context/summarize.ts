import { errorMessage } from '../../../internal/thrown-value.ts';
import type { ContentPart, Model, ModelMessage, Usage } from '../../model/index.ts';
import { raceAbort } from '../abort.ts';
import { AgentError } from '../agent-error.ts';
import { withCost } from '../budget.ts';
import { describe } from '../describe.ts';
import { addUsage } from '../state.ts';
import { checkCount, checkStrategyOptions } from './check.ts';
import { defineStrategy, type StrategyInput } from './strategy.ts';
import type { ContextStrategy } from './types.ts';
import { isUserTurn } from './window.ts';

/** Options of {@link summarize}. */
export interface SummarizeOptions {
  /** The model that writes the summary; default the agent's own. */
  model?: Model;
  /** How many of the latest messages are always sent as they are (default 6). */
  keepLast?: number;
  /** The summary request's system prompt; default {@link DEFAULT_SUMMARY_PROMPT}. */
  prompt?: string;
}

/** The system prompt of a summary request unless `summarize({ prompt })` gives another. */
export const DEFAULT_SUMMARY_PROMPT =
  'You summarise a conversation between a user and an AI assistant that uses tools, for the ' +
  'assistant who will continue it without seeing the original. Keep every fact, decision, ' +
  'name, number, commitment, open question and tool result that may still matter; drop ' +
  'pleasantries and repetition. If an earlier summary is given, merge it in. Answer with ' +
  'the summary only, in plain prose or short lists.';

/** How much of one message part the summary request shows. */
const MAX_PART_CHARS = 2_000;
/** How much of the transcript the summary request shows (its latest part). */
const MAX_TRANSCRIPT_CHARS = 120_000;

/**
 * A context strategy that replaces the older messages by a summary a model writes, when
 * the request does not fit: everything but the `keepLast` latest messages (never
 * splitting a tool call from its result) is summarised, together with the previous
 * summary, into `state.context.summary = { text, through }`, which is checkpointed
 * (reason `context`) before the request, so a resumed run uses it instead of writing it
 * again. The summary is sent at the end of the system prompt; the messages it stands for
 * stay in the state. The summary request's usage (and cost, at the agent's `prices` for
 * the summary model) counts in the run's usage.
 *
 * @example
 * ```ts
 * import { agent, summarize } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const summarizer = scriptedModel(['The user is Ada; she ordered a blue kettle (#42).']);
 * const history = Array.from({ length: 30 }, (_, i) => ({
 *   role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
 *   content: `turn ${i}: ${'details '.repeat(40)}`,
 * }));
 * const model = scriptedModel(['Your kettle ships tomorrow.']);
 * const bot = agent({
 *   model,
 *   context: { maxTokens: 1_500, strategy: summarize({ model: summarizer, keepLast: 4 }) },
 * });
 * const result = await bot.generate([...history, { role: 'user', content: 'Where is my order?' }]);
 * if (result.status === 'done') console.log(result.state.context?.summary?.through); // 26
 * console.log(model.requests[0].system?.includes('blue kettle')); // true
 * ```
 */
export function summarize(options?: SummarizeOptions): ContextStrategy {
  const checked = checkStrategyOptions('summarize(options)', options, [
    'model',
    'keepLast',
    'prompt',
  ]);
  const keepLast = checkCount('summarize(options).keepLast', checked.keepLast, 6);
  const { model, prompt = DEFAULT_SUMMARY_PROMPT } = checked;
  if (
    model !== undefined &&
    (model === null || typeof model !== 'object' || typeof model.generate !== 'function')
  ) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `summarize(options).model: expected a Model with generate(), received ${describe(model)}`,
    );
  }
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `summarize(options).prompt: expected a non-empty string, received ${describe(prompt)}`,
    );
  }
  return defineStrategy(
    'summarize',
    { keepLast, prompt },
    {
      async apply(input) {
        const from = input.summary?.through ?? 0;
        const through = cutPoint(input, keepLast);
        if (through <= from) {
          input.note(`summarize: nothing older than the ${keepLast} latest messages to summarise`);
          return;
        }
        const text = await writeSummary(input, model ?? input.run.config.model, prompt, through);
        if (text !== undefined) input.setSummary({ text, through });
      },
    },
  );
}

/**
 * The largest `through` ≤ the latest `keepLast` messages (and before the last unit)
 * where the sent messages can start: a user message up to the latest one, or after it
 * an assistant turn (the latest user message is always sent first).
 */
function cutPoint({ window }: StrategyInput, keepLast: number): number {
  const { all, latestUser } = window;
  for (let c = Math.min(all.length - keepLast, window.tail); c > 0; c--) {
    if (c <= latestUser ? isUserTurn(all[c]) : all[c].role === 'assistant') return c;
  }
  return 0;
}

async function writeSummary(
  input: StrategyInput,
  model: Model,
  prompt: string,
  through: number,
): Promise<string | undefined> {
  const { run, state, summary } = input;
  let transcript = '';
  if (summary) transcript += `Earlier summary:\n${summary.text}\n\nConversation since:\n`;
  for (let i = summary?.through ?? 0; i < through; i++) transcript += render(state.messages[i]);
  if (transcript.length > MAX_TRANSCRIPT_CHARS) {
    transcript = `[…earlier part omitted]\n${transcript.slice(-MAX_TRANSCRIPT_CHARS)}`;
  }
  let text: unknown;
  try {
    const result = await raceAbort(
      model.generate({
        system: prompt,
        messages: [{ role: 'user', content: transcript }],
        signal: run.signal,
      }),
      run.signal,
    );
    addUsage(state.usage, withCost(usageOf(result?.usage), model, run.config.prices));
    text = result?.text;
  } catch (error) {
    if (run.signal.aborted) throw error;
    input.note(`summarize: the summary model failed: ${errorMessage(error)}`, error);
    return undefined;
  }
  if (typeof text !== 'string' || text.trim() === '') {
    input.note(`summarize: the summary model answered without text (${describe(text)})`);
    return undefined;
  }
  return text.trim();
}

/** The summary call's usage as numbers (a model written by hand may leave some out). */
function usageOf(usage: Partial<Usage> | undefined): Usage {
  const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);
  const inputTokens = count(usage?.inputTokens);
  const outputTokens = count(usage?.outputTokens);
  return {
    inputTokens,
    outputTokens,
    totalTokens: count(usage?.totalTokens) || inputTokens + outputTokens,
  };
}

/** One message as transcript lines; long parts are cut. */
function render(message: ModelMessage): string {
  const who =
    message.role === 'assistant' ? 'Assistant' : message.role === 'user' ? 'User' : 'System';
  if (typeof message.content === 'string') return `${who}: ${cutText(message.content)}\n`;
  let out = '';
  for (const part of message.content as ContentPart[]) {
    if (part.type === 'text') out += `${who}: ${cutText(part.text)}\n`;
    else if (part.type === 'tool_use') {
      out += `${who} called tool ${part.name} with ${cutText(JSON.stringify(part.args) ?? '')}\n`;
    } else if (part.type === 'tool_result') {
      const content =
        typeof part.content === 'string' ? part.content : JSON.stringify(part.content);
      out += `Tool result${part.isError ? ' (error)' : ''}: ${cutText(content ?? '')}\n`;
    } else if (part.type !== 'reasoning') out += `${who}: [${part.type}]\n`;
  }
  return out;
}

function cutText(text: string): string {
  return text.length > MAX_PART_CHARS ? `${text.slice(0, MAX_PART_CHARS)}…[cut]` : text;
}
