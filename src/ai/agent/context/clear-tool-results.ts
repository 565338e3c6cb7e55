import type { ContentPart, ModelMessage } from '../../model/index.ts';
import { READ_RESULT } from '../result-budget.ts';
import type { ToolResultPart } from '../types.ts';
import { checkCount, checkStrategyOptions } from './check.ts';
import { defineStrategy } from './strategy.ts';
import type { ContextStrategy } from './types.ts';
import { answersTools } from './window.ts';

/** Options of {@link clearToolResults}. */
export interface ClearToolResultsOptions {
  /** Only results with at least this many model turns after them are cleared (default 0). */
  olderThan?: number;
  /** How many of the latest tool results are never cleared (default 3). */
  keep?: number;
}

/** Results shorter than this many characters are not worth a placeholder. */
const MIN_CLEARED_CHARS = 400;

/**
 * A context strategy that sends old tool results as a short placeholder, oldest first,
 * until the request fits. The placeholder names an id the built-in `read_result` tool
 * pages the whole result back with (the result stays in the run's state), so the model
 * can fetch what it needs again. The calls (`tool_use`) stay, so every call keeps its
 * result. `keep` protects the latest results, `olderThan` results of recent turns.
 *
 * @example
 * ```ts
 * import { agent, clearToolResults } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const fetchPage = tool({
 *   name: 'fetch_page',
 *   description: 'Fetch a page.',
 *   parameters: v.object({ n: v.number() }),
 *   execute: ({ n }: { n: number }) => `page ${n}: ${'lorem ipsum '.repeat(300)}`,
 * });
 * const model = scriptedModel([
 *   ...Array.from({ length: 6 }, (_, n) => ({ toolCalls: [{ name: 'fetch_page', args: { n } }] })),
 *   'Read them all.',
 * ]);
 * const bot = agent({
 *   model,
 *   tools: [fetchPage],
 *   stopWhen: [],
 *   context: { maxTokens: 3_000, strategy: clearToolResults({ keep: 2 }) },
 * });
 * await bot.generate('Read six pages.');
 * const last = JSON.stringify(model.requests.at(-1)?.messages);
 * console.log(last.includes('cleared to fit the context window')); // true
 * ```
 */
export function clearToolResults(options?: ClearToolResultsOptions): ContextStrategy {
  const checked = checkStrategyOptions('clearToolResults(options)', options, ['olderThan', 'keep']);
  const olderThan = checkCount('clearToolResults(options).olderThan', checked.olderThan, 0);
  const keep = checkCount('clearToolResults(options).keep', checked.keep, 3);
  // The same placeholder message object for the same message at every request, so its
  // token count is computed once (estimates are cached per message object).
  const placeholders = new WeakMap<ModelMessage, Cleared>();
  return defineStrategy(
    'clearToolResults',
    { olderThan, keep },
    {
      apply({ window, summary }) {
        const { all } = window;
        const from = summary?.through ?? 0;
        // A message's results may go once the `keep` latest results and `olderThan` model
        // turns come after it: found walking back from the end (both only grow).
        let resultsAfter = 0;
        let turnsAfter = 0;
        let until = from;
        for (let i = all.length - 1; i >= from; i--) {
          if (resultsAfter >= keep && turnsAfter >= olderThan) {
            until = i + 1;
            break;
          }
          if (all[i].role === 'assistant') turnsAfter++;
          if (answersTools(all[i])) resultsAfter += toolResults(all[i]).length;
        }
        until = Math.min(until, window.tail);
        for (let i = from; i < until && !window.fits(); i++) {
          if (!window.isSent(i) || !answersTools(all[i])) continue;
          const cleared = clearedVersion(all[i], i, placeholders);
          if (cleared) window.replace(i, cleared.message, cleared.count);
        }
      },
    },
  );
}

function toolResults(message: ModelMessage): ToolResultPart[] {
  return (message.content as ContentPart[]).filter(
    (part): part is ToolResultPart => part.type === 'tool_result',
  );
}

interface Cleared {
  index: number;
  message: ModelMessage;
  count: number;
}

/** {@link clearMessage}, remembered per message object and index. */
function clearedVersion(
  message: ModelMessage,
  index: number,
  cache: WeakMap<ModelMessage, Cleared>,
): Omit<Cleared, 'index'> | undefined {
  const known = cache.get(message);
  if (known?.index === index) return known.count > 0 ? known : undefined;
  const cleared = clearMessage(message, index);
  cache.set(message, { index, message: cleared?.message ?? message, count: cleared?.count ?? 0 });
  return cleared;
}

/** The message with its long tool results replaced by placeholders, or `undefined` when none is long. */
function clearMessage(
  message: ModelMessage,
  index: number,
): { message: ModelMessage; count: number } | undefined {
  let count = 0;
  const content = (message.content as ContentPart[]).map((part) => {
    if (part.type !== 'tool_result' || part.provider !== undefined) return part;
    const size = resultChars(part.content);
    if (size < MIN_CLEARED_CHARS) return part;
    count++;
    const id = clearedResultId(part.toolCallId, index);
    const cleared: ToolResultPart = {
      type: 'tool_result',
      toolCallId: part.toolCallId,
      content: `[Tool result cleared to fit the context window (${size} characters). To read it again, call ${READ_RESULT} with ${JSON.stringify({ id, offset: 0 })}.]`,
    };
    if (part.isError) cleared.isError = true;
    return cleared;
  });
  return count > 0 ? { message: { ...message, content }, count } : undefined;
}

function resultChars(content: ToolResultPart['content']): number {
  return typeof content === 'string' ? content.length : (JSON.stringify(content)?.length ?? 0);
}

/**
 * The id `read_result` finds a cleared result by: the call's id and the index of the
 * message holding its result (a model may reuse a call id across turns).
 */
export function clearedResultId(toolCallId: string, messageIndex: number): string {
  return `${toolCallId}@${messageIndex}`;
}
