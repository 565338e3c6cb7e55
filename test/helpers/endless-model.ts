/**
 * A fino model that streams text forever (until its request is aborted), counting what it
 * sent: the source a client that never reads must not be able to pile up in memory.
 */
import type { GenerateRequest, Model, StreamEvent } from '../../src/ai/model/index.ts';

export interface EndlessModel extends Model {
  /** Deltas streamed so far. */
  readonly sent: number;
  /** Settles once a request's signal aborted (the run was stopped). */
  readonly aborted: Promise<void>;
}

/** A model whose every stream yields `delta` forever, yielding to the event loop every 64. */
export function endlessModel(delta = 'x'.repeat(256)): EndlessModel {
  let sent = 0;
  let markAborted!: () => void;
  const aborted = new Promise<void>((resolve) => (markAborted = resolve));
  return {
    id: 'endless',
    get sent() {
      return sent;
    },
    aborted,
    generate: () => Promise.reject(new Error('endlessModel: stream only')),
    async *stream(request: GenerateRequest): AsyncIterable<StreamEvent> {
      request.signal?.addEventListener('abort', markAborted, { once: true });
      while (!request.signal?.aborted) {
        sent++;
        yield { type: 'text-delta', text: delta };
        if (sent % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      markAborted();
    },
  };
}

/** Reads `reader` until the model's text is streaming (so the model was called), returning what was read. */
export async function readUntilStreaming(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('"type":"text-delta"')) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended before any text: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  return text;
}
