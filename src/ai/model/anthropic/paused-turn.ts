/**
 * One turn of an Anthropic model across the responses it takes: the API may pause a turn
 * (`pause_turn`) and is then sent what it has written so far, to go on.
 */
import {
  type AnswerSize,
  type GenerateRequest,
  type GenerateResult,
  type ModelWarning,
  TurnBuilder,
  type Usage,
  usageOf,
} from '../core/index.ts';
import { stopReasonOf } from './read-answer.ts';

/** How many times one turn paused by the API (`pause_turn`) is continued before giving up. */
const MAX_PAUSE_CONTINUATIONS = 8;

/** What one response added to a turn: its raw stop reason, usage and blocks as received. */
export interface ReadTurn {
  raw?: string;
  usage: Usage;
  blocks: Block[];
}

export type Block = Record<string, unknown>;

function builderFor(request: GenerateRequest, size: AnswerSize): TurnBuilder {
  const builder = new TurnBuilder(size);
  if (request.output) builder.parseOutput();
  return builder;
}

/**
 * One turn of the model, which the API may pause (`pause_turn`, a long server tool run):
 * `paused` holds its blocks so far, to send back so that it goes on; `add` takes each
 * response and answers the finished result — usage summed over every response — or
 * `undefined` while the turn is paused and may be continued (at most
 * {@link MAX_PAUSE_CONTINUATIONS} times; then it ends with a warning).
 */
export function pausableTurn(request: GenerateRequest, size: AnswerSize) {
  const builder = builderFor(request, size);
  const paused: Block[] = [];
  let usage = usageOf();
  let pauses = 0;
  return {
    builder,
    paused,
    add(turn: ReadTurn, warnings: ModelWarning[]): GenerateResult | undefined {
      usage = addUsage(usage, turn.usage);
      paused.push(...turn.blocks);
      if (turn.raw === 'pause_turn' && pauses < MAX_PAUSE_CONTINUATIONS) {
        pauses++;
        return undefined;
      }
      if (turn.raw === 'pause_turn') {
        warnings.push({
          message: `the turn was still paused (pause_turn) after ${MAX_PAUSE_CONTINUATIONS} continuations`,
        });
      }
      return builder.finish(stopReasonOf(turn.raw), turn.raw, usage, warnings);
    },
  };
}

/** The sum of two usages, optional counts included where either has them. */
function addUsage(a: Usage, b: Usage): Usage {
  const sum = usageOf(a.inputTokens + b.inputTokens, a.outputTokens + b.outputTokens);
  for (const key of ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}
