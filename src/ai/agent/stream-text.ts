import type { AgentEvent } from './types.ts';

/**
 * The text of a streamed run, delta by delta, across all its steps.
 *
 * @example
 * ```ts
 * import { agent, streamText } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 *
 * const run = agent({ model: scriptedModel(['Hello there.']) }).stream('Hi');
 * for await (const text of streamText(run)) process.stdout.write(text);
 * ```
 */
export async function* streamText(stream: AsyncIterable<AgentEvent>): AsyncGenerator<string> {
  for await (const event of stream) {
    if (event.type === 'text-delta') yield event.text;
  }
}
