/** A run's events as a stream of UI message chunks (one assistant message). */
import type { AgentEvent } from '../agent/index.ts';
import { type UIStreamOptions, uiChunkMapper } from './chunk-mapper.ts';
import type { UIMessageChunk } from './types.ts';

/**
 * The UI message chunks of one run's events, through {@link uiChunkMapper}: `start`, the
 * chunks of each event, and — when the events fail — the failure's chunks instead of an
 * exception (an abort as `abort`, any other error as `data-fino-error` and `error`).
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { uiMessageChunks } from 'fino:ai/ui';
 *
 * const run = agent({ model: scriptedModel(['Hello!']) }).stream('Hi', { runId: 'run_1' });
 * for await (const chunk of uiMessageChunks(run, { runId: 'run_1' })) console.log(chunk.type);
 * // start, start-step, text-start, text-delta, text-end, finish-step, finish
 * ```
 */
export async function* uiMessageChunks(
  events: AsyncIterable<AgentEvent>,
  options: UIStreamOptions = {},
): AsyncGenerator<UIMessageChunk, void, undefined> {
  const mapper = uiChunkMapper(options);
  yield* mapper.start();
  let failure: { error: unknown } | undefined;
  try {
    for await (const event of events) yield* mapper.map(event);
  } catch (error) {
    failure = { error };
  }
  if (failure) yield* mapper.fail(failure.error);
}
