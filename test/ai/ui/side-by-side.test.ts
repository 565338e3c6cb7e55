/**
 * The issue's "Done when": `ai`'s own reader and chat client read fino's streams for a
 * text turn, a tool turn, an approval, an error and a resumed stream with no error, and
 * build the same message a native AI SDK backend builds for the same turns. Each turn runs
 * through (a) the AI SDK's own server, `streamText({ model: MockLanguageModelV4, tools })
 * .toUIMessageStreamResponse()`, and (b) fino (`agentUIResponse`, or `chatHandler` over a
 * memory session), and the messages are compared after `comparable` (in
 * test/helpers/ui-turns.ts: the named list of what may differ, and why; decision 259).
 */
import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStore, session } from '../../../src/ai/session/index.ts';
import { agentUIResponse, chatHandler } from '../../../src/ai/ui/index.ts';
import { readUntilStreaming } from '../../helpers/endless-model.ts';
import { nativeChatServer } from '../../helpers/native-chat-server.ts';
import { TestChat } from '../../helpers/ui-chat-client.ts';
import { until } from '../../helpers/ui-stream.ts';
import {
  comparable,
  finoAgent,
  nativeChatResponse,
  type Pace,
  type Turn,
} from '../../helpers/ui-turns.ts';

const API = 'http://chat.test/api/chat';

const stores: ReturnType<typeof memoryStore>[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** A memory session over `turns`, closed after the test. */
function finoSession(turns: Turn[], pace?: Pace) {
  const store = memoryStore();
  stores.push(store);
  return session({ store, agent: finoAgent(turns, pace), events: true });
}
const question = (text: string): UIMessage => ({
  id: 'u1',
  role: 'user',
  parts: [{ type: 'text', text }],
});

/** An error the reader reported, without the `CODE: ` fino puts before the model's message. */
const errorText = (error: unknown) => String((error as Error).message).replace(/^[A-Z_]+: /, '');

/** The message `readUIMessageStream` builds from a response, read as `DefaultChatTransport` parses it. */
async function readResponse(response: Response) {
  expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
  const events = parseJsonEventStream({
    stream: response.body as ReadableStream<Uint8Array>,
    schema: uiMessageChunkSchema,
  });
  const stream = events.pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, UIMessageChunk>({
      transform(event, controller) {
        if (!event.success) throw event.error;
        controller.enqueue(event.value as UIMessageChunk);
      },
    }),
  );
  const errors: unknown[] = [];
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream, onError: (e) => errors.push(e) })) {
    message = snapshot;
  }
  return { message: comparable(message as UIMessage), errors: errors.map(errorText) };
}

/** One stateless turn through both backends, each read by `readUIMessageStream`. */
async function bothStateless(turns: Turn[]) {
  const fino = await readResponse(agentUIResponse(finoAgent(turns), 'hi', { runId: 'run_1' }));
  const native = await readResponse(nativeChatResponse(turns));
  return { fino, native };
}

describe('side by side with the AI SDK’s own backend, read by ai’s readUIMessageStream', () => {
  it('a text turn: the same message, no error', async () => {
    const { fino, native } = await bothStateless([{ text: ['Hello', ' there!'] }]);
    expect(fino.errors).toEqual([]);
    expect(fino).toEqual(native);
    expect(fino.message.parts).toContainEqual({
      type: 'text',
      text: 'Hello there!',
      state: 'done',
    });
  });

  it('a tool turn (a tool that executes): the same message, no error', async () => {
    const turns: Turn[] = [
      { text: 'Looking.', calls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }] },
      { text: 'It is 4 °C.' },
    ];
    const { fino, native } = await bothStateless(turns);
    expect(fino.errors).toEqual([]);
    expect(fino).toEqual(native);
    expect(fino.message.parts.map((part) => part.type)).toEqual([
      'step-start',
      'text',
      'tool-weather',
      'step-start',
      'text',
    ]);
  });

  it('an error (the model fails mid-stream): the same message and error text, fino’s with its code', async () => {
    const turns: Turn[] = [{ text: ['Half ', 'an answer'], error: 'the model is down' }];
    const { fino, native } = await bothStateless(turns);
    expect(fino).toEqual(native);
    expect(native.errors).toEqual(['the model is down']);
    const raw = await agentUIResponse(finoAgent(turns), 'hi').text();
    expect(raw).toContain('"errorText":"INTERNAL: the model is down"');
  });
});

/** Both backends of a chat, each driven by `ai`'s own chat client as a page drives it. */
function bothChats(turns: Turn[]) {
  const fino = new TestChat({
    id: 'chat-1',
    api: API,
    handler: chatHandler({ session: finoSession(turns) }).fetch,
  });
  // The AI SDK's server keeps no conversation: its page posts the whole of it.
  const native = new TestChat({
    id: 'chat-1',
    api: API,
    handler: nativeChatServer(turns),
    wholeConversation: true,
  });
  return { fino, native };
}

/** Answers the chat's approval request and waits for the continuation `sendAutomaticallyWhen` sent. */
async function answerApproval(chat: TestChat, approved: boolean): Promise<void> {
  const part = chat.messages.at(-1)?.parts.find((p) => 'approval' in p && p.approval) as {
    approval: { id: string };
  };
  await chat.addToolApprovalResponse({ id: part.approval.id, approved });
  await until(
    () =>
      chat.status === 'ready' &&
      !chat.messages.at(-1)?.parts.some((p) => 'state' in p && p.state === 'approval-responded'),
    'the continuation after the approval response',
  );
}

describe('an approval side by side: ai’s chat client against both servers', () => {
  const turns = (after: string): Turn[] => [
    { text: 'Paying.', calls: [{ id: 'c1', name: 'pay', input: { city: 'Oslo' } }] },
    { text: after },
  ];

  for (const approved of [true, false]) {
    it(`the request, then ${approved ? 'the approved continuation' : 'a denial'}: the same messages at each step`, async () => {
      const { fino, native } = bothChats(turns(approved ? 'Paid.' : 'Not paid.'));
      for (const chat of [fino, native]) await chat.sendMessage({ text: 'Pay for Oslo' });
      expect(fino.messages.map(comparable)).toEqual(native.messages.map(comparable));
      expect(fino.messages.at(-1)?.parts.at(-1)).toMatchObject({
        type: 'tool-pay',
        state: 'approval-requested',
      });

      for (const chat of [fino, native]) await answerApproval(chat, approved);
      expect(fino.errors).toEqual([]);
      expect(native.errors).toEqual([]);
      expect(fino.messages).toHaveLength(2); // the continuation is the same assistant message
      expect(fino.messages.map(comparable)).toEqual(native.messages.map(comparable));
      expect(fino.messages.at(-1)?.parts.find((p) => p.type === 'tool-pay')).toMatchObject({
        state: approved ? 'output-available' : 'output-denied',
      });
    });
  }
});

/** A pace that holds a model before its second text delta until `open()`. */
function gate(): { pace: Pace; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { pace: () => opened, open };
}

/** A page posts `body`, reads until the answer's text streams, and leaves (a reload). */
async function leaveMidStream(handler: (request: Request) => Promise<Response>, body: unknown) {
  const page = new AbortController();
  const response = await handler(
    new Request(API, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: page.signal,
    }),
  );
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  await readUntilStreaming(reader);
  page.abort();
  await reader.cancel();
}

/**
 * The reloaded page's resume, twice: the raw `GET …/stream` read by `readUIMessageStream`,
 * and `ai`'s chat client's `resumeStream()` from the messages the page reloads with; the
 * model, held mid-answer, is let go once the client shows the replayed part of it.
 */
async function resumed(
  handler: (request: Request) => Promise<Response>,
  reloadedWith: UIMessage[],
  open: () => void,
) {
  const raw = handler(new Request(`${API}/chat-1/stream`)).then(readResponse);
  const chat = new TestChat({ id: 'chat-1', api: API, handler, messages: reloadedWith });
  const following = chat.resumeStream();
  await until(() => chat.messages.length === reloadedWith.length + 1, 'the resumed message');
  open();
  await following;
  return { read: await raw, chat: chat.messages.map(comparable), errors: chat.errors };
}

describe('a resumed stream side by side', () => {
  // The AI SDK's resume is its resumable-stream recipe (`consumeSseStream` records the
  // response, `GET /api/chat/:id/stream` replays it from the start, then live), with the
  // `resumable-stream` package's Redis replaced by memory (test/helpers/native-chat-server.ts).
  it('a page that left mid-stream resumes to the same message as the AI SDK’s resumable stream, and the uninterrupted turn', async () => {
    const turns: Turn[] = [{ text: ['Half ', 'the answer.'] }];
    const finoGate = gate();
    const fino = chatHandler({ session: finoSession(turns, finoGate.pace) }).fetch;
    await leaveMidStream(fino, { id: 'chat-1', message: question('Tell me') });
    const reloaded = (await (
      await fino(new Request(`${API}/chat-1/messages`))
    ).json()) as UIMessage[];
    expect(reloaded.map(comparable)).toEqual([comparable(question('Tell me'))]);
    const finoResumed = await resumed(fino, reloaded, finoGate.open);

    const nativeGate = gate();
    const native = nativeChatServer(turns, nativeGate.pace);
    await leaveMidStream(native, { id: 'chat-1', messages: [question('Tell me')] });
    const nativeResumed = await resumed(native, [question('Tell me')], nativeGate.open);

    expect(finoResumed.errors).toEqual([]);
    expect(finoResumed.read.errors).toEqual([]);
    expect(finoResumed).toEqual(nativeResumed);
    const uninterrupted = await readResponse(nativeChatResponse(turns));
    expect(finoResumed.read.message).toEqual(uninterrupted.message);
    expect(finoResumed.chat.at(-1)).toEqual(uninterrupted.message);
  });
});
