/** An agent run as a UI message stream `Response`, for a Web request handler. */
import { randomUUID } from 'node:crypto';
import type { Agent, AgentInput, AgentRunOptions } from '../agent/index.ts';
import type { UIStreamOptions } from './chunk-mapper.ts';
import { type UIStreamLimits, uiMessageStreamResponse } from './sse.ts';
import type { UIMessageChunk } from './types.ts';
import { uiMessageChunks } from './ui-chunks.ts';

/** Options of {@link agentUIResponse}: the run's, the stream's, and the response's. */
export type AgentUIOptions = AgentRunOptions &
  UIStreamOptions & {
    /** The response's limits (see `UIStreamLimits`). */
    limits?: UIStreamLimits;
    /** More response headers; the protocol's win over these. */
    headers?: ConstructorParameters<typeof Headers>[0];
  };

/**
 * Runs `agent` on `input` (`agent.stream()`) and returns its UI message stream as a
 * `Response`: one assistant message whose id is the run's id (given as `runId`, or made
 * here). Pass `request.signal` as `signal`: the client leaving aborts the run, as does
 * a client that stops reading past `limits.maxBufferedBytes` (decision 247).
 *
 * @example
 * ```ts
 * import { agent } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { agentUIResponse } from 'fino:ai/ui';
 *
 * const bot = agent({ model: scriptedModel(['Hello!']) });
 * // e.g. a Next.js route handler: export const POST = (request: Request) => …
 * const response = agentUIResponse(bot, 'Hi', { runId: 'run_1' });
 * console.log(response.headers.get('content-type')); // text/event-stream
 * console.log((await response.text()).includes('"delta":"Hello!"')); // true
 * ```
 */
export function agentUIResponse(
  agent: Agent<unknown>,
  input: AgentInput,
  options: AgentUIOptions = {},
): Response {
  const { messageId, threadId, limits, headers, ...runOptions } = options;
  const runId = runOptions.runId ?? `run_${randomUUID()}`;
  const stop = new AbortController();
  const signal = runOptions.signal
    ? AbortSignal.any([runOptions.signal, stop.signal])
    : stop.signal;
  const run = agent.stream(input, { ...runOptions, runId, signal });
  run.result.catch(() => {}); // the stream reports the failure
  const chunks = uiMessageChunks(run, {
    runId,
    messageId,
    threadId,
    agent: runOptions.agent ?? agent.name,
  });
  return uiMessageStreamResponse(abortingOnReturn(chunks, stop), {
    signal: runOptions.signal,
    limits,
    headers,
  });
}

/**
 * `chunks`, whose iterator's `return()` (the response closed early) aborts the run at once,
 * even while a `next()` waits on it.
 */
function abortingOnReturn(
  chunks: AsyncGenerator<UIMessageChunk, void, undefined>,
  stop: AbortController,
): AsyncIterable<UIMessageChunk> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => chunks.next(),
      return: () => {
        if (!stop.signal.aborted) stop.abort(streamClosed());
        void chunks.return().catch(() => {});
        return Promise.resolve({ done: true as const, value: undefined });
      },
    }),
  };
}

function streamClosed(): Error {
  const error = new Error('The UI message stream was closed before the run ended');
  error.name = 'AbortError';
  return error;
}
