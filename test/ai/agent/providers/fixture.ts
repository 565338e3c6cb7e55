/**
 * What the shared agent-loop suite (`../providers.test.ts`) needs from one provider: a
 * model pointed at a replay server, the provider's documented wire replies, and readers
 * for what the adapter sent back. Add a provider by writing one of these and listing it
 * in the suite's `FIXTURES`.
 */
import type { Model } from '../../../../src/ai/model/index.ts';
import type { Reply } from '../../../helpers/fake-provider.ts';

/** A tool call as the fixture's wire reply announces it. */
export interface WireCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** A tool result as the adapter sent it back, read from a recorded request body. */
export interface SentResult {
  id: string;
  text: string;
  isError: boolean;
}

export interface ProviderFixture {
  name: string;
  /** The model under test, sending to `baseURL` (the replay server's URL). */
  model(baseURL: string): Model;
  /** A reply whose turn is these tool calls (all in one turn), whole or streamed. */
  toolCalls(calls: WireCall[], stream: boolean): Reply;
  /** A reply whose turn is this text, whole or streamed (in two deltas when streamed). */
  text(text: string, stream: boolean): Reply;
  /** The tool results the request `body` carries, in order. */
  sentResults(body: any): SentResult[];
  /** The JSON Schema the request `body` asks the provider's structured output for, if any. */
  sentOutputSchema(body: any): unknown;
  /** The path a request goes to, generate or stream (e.g. `/v1/messages`). */
  path(stream: boolean): string;
}
