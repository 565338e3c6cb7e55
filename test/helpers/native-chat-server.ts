/**
 * The AI SDK's own chat backend as its docs write it, for side-by-side tests: `POST
 * /api/chat` runs `streamText` over the whole conversation the page posts and answers
 * `toUIMessageStreamResponse({ originalMessages })` (so an approval's continuation goes on
 * the same assistant message); `GET /api/chat/:id/stream` is its resumable-stream recipe,
 * with the Redis of the `resumable-stream` package replaced by memory: `consumeSseStream`
 * records the response's SSE, and a resume replays it from the start and then follows it.
 */
import {
  convertToModelMessages,
  isStepCount,
  streamText,
  UI_MESSAGE_STREAM_HEADERS,
  type UIMessage,
} from 'ai';
import { aiTools, nativeErrorText, nativeModel, type Pace, type Turn } from './ui-turns.ts';

/** A request handler in place of the AI SDK app's route handlers. */
export function nativeChatServer(
  turns: Turn[],
  pace?: Pace,
): (request: Request) => Promise<Response> {
  const model = nativeModel(turns, pace);
  const activeStreams = new Map<string, RecordedSse>();
  return async (request) => {
    if (request.method === 'GET') {
      const chatId = new URL(request.url).pathname.split('/').at(-2) ?? '';
      const active = activeStreams.get(chatId);
      if (!active) return new Response(null, { status: 204 });
      return new Response(active.replay(), { headers: UI_MESSAGE_STREAM_HEADERS });
    }
    const { id, messages } = (await request.json()) as { id: string; messages: UIMessage[] };
    const result = streamText({
      model,
      messages: await convertToModelMessages(messages, { tools: aiTools }),
      tools: aiTools,
      stopWhen: isStepCount(10),
      onError: () => {},
    });
    return result.toUIMessageStreamResponse({
      originalMessages: messages,
      onError: nativeErrorText,
      consumeSseStream: ({ stream }) => {
        activeStreams.set(
          id,
          recordSse(stream, () => activeStreams.delete(id)),
        );
      },
    });
  };
}

/** A response's SSE text as it is written, replayable from its start while it goes on. */
interface RecordedSse {
  replay(): ReadableStream<Uint8Array>;
}

/** Reads `stream` to its end (whoever else reads the response), keeping every piece. */
function recordSse(stream: ReadableStream<string>, onEnd: () => void): RecordedSse {
  const pieces: string[] = [];
  const waiting = new Set<() => void>();
  let ended = false;
  void (async () => {
    for await (const piece of stream as unknown as AsyncIterable<string>) {
      pieces.push(piece);
      for (const wake of waiting) wake();
    }
    ended = true;
    for (const wake of waiting) wake();
    onEnd();
  })();
  const encoder = new TextEncoder();
  return {
    replay: () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          while (sent === pieces.length && !ended) {
            await new Promise<void>((resolve) => {
              const wake = () => {
                waiting.delete(wake);
                resolve();
              };
              waiting.add(wake);
            });
          }
          if (sent < pieces.length) controller.enqueue(encoder.encode(pieces[sent++]));
          else controller.close();
        },
      });
    },
  };
}
