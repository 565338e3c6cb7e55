/**
 * Attacks on what reaches the chat handler before any chat logic (issue 28, "Bad input
 * and limits"; decision 260): bodies past `limits.bytes` (declared, streamed without a
 * length, under a lying length), 10 000-part messages, deep nesting, non-JSON, the wrong
 * content type, wrong methods and paths, and chat ids in the path or the body that are no
 * ids (control characters, lone surrogates, 10 000 characters, bad percent-escapes). Each
 * is a clear refusal — status, code, a message naming what was wrong and what was
 * expected — and changes nothing: a chat that waits for an approval stays exactly as it
 * was, and no run, thread or event is added.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/ai/model/index.ts';
import type { Store } from '../../src/ai/session/index.ts';
import { sessionStores, withStore } from '../helpers/session-stores.ts';
import {
  CHAT_URL,
  chatSnapshot,
  chatUnderAttack,
  JSON_HEADERS,
  postChat,
  refusalOf,
  userMessage,
} from '../helpers/ui-chat-attack.ts';

const open = sessionStores('hostile-ui-chat-requests');

/** A chat (chat-1) whose run waits for approval, and a way to see the store did not change. */
async function guardedChat(store: Store) {
  const model = scriptedModel([
    { text: 'Refunding.', toolCalls: [{ id: 'c1', name: 'refund', args: { orderId: 'o-17' } }] },
  ]);
  const fixture = chatUnderAttack(store, model);
  await (await fixture.chat.fetch(postChat(userMessage('chat-1', 'Refund o-17')))).text();
  const everything = async () => ({
    chat: await chatSnapshot(fixture.runs, 'chat-1'),
    runs: (await fixture.runs.list()).map((run) => run.runId),
  });
  const before = await everything();
  expect(before.chat.runs[0].run?.status).toBe('suspended');
  /** The refusal of `request`, after checking the store is as it was. */
  const refused = async (request: Request) => {
    const refusal = await refusalOf(await fixture.chat.fetch(request));
    expect(await everything()).toEqual(before);
    expect(fixture.executed).toEqual([]);
    expect(fixture.errors).toEqual([]);
    return refusal;
  };
  return { ...fixture, refused };
}

/** A body of `total` bytes of one JSON string, made on demand; counts what was pulled. */
function streamedBody(total: number) {
  const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":"chat-1","pad":"'));
      },
      pull(controller) {
        if (seen.pulled >= total) return controller.close();
        seen.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

const streamedPost = (stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request(CHAT_URL, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...headers },
    body: stream,
    duplex: 'half',
  } as RequestInit);

const TOO_LARGE = {
  status: 413,
  code: 'TOO_LARGE',
  message: 'Expected a body of at most 1048576 bytes; this one is larger.',
};

describe.each([
  ['memory', open.memory],
  ['sqlite', open.sqlite],
])('hostile requests to a chat handler over a %s session', (_name, openStore) => {
  it(
    'refuses bodies past limits.bytes: declared, streamed without a length, under a lying length',
    withStore(openStore, async (store) => {
      const chat = await guardedChat(store);
      const declared = streamedBody(8 * 1024 * 1024);
      expect(
        await chat.refused(streamedPost(declared.stream, { 'content-length': String(8 << 20) })),
      ).toEqual(TOO_LARGE);
      expect(declared.seen.pulled).toBeLessThanOrEqual(16 * 1024);

      const unannounced = streamedBody(8 * 1024 * 1024);
      expect(await chat.refused(streamedPost(unannounced.stream))).toEqual(TOO_LARGE);
      expect(unannounced.seen.pulled).toBeLessThan(1024 * 1024 + 3 * 16 * 1024);
      expect(unannounced.seen.cancelled).toBe(true);

      const lying = streamedBody(8 * 1024 * 1024);
      expect(await chat.refused(streamedPost(lying.stream, { 'content-length': '100' }))).toEqual(
        TOO_LARGE,
      );
      expect(lying.seen.pulled).toBeLessThan(1024 * 1024 + 3 * 16 * 1024);
    }),
  );

  it(
    'refuses a 10 000-part message, deep nesting, non-JSON, non-UTF-8 and a wrong content type',
    withStore(openStore, async (store) => {
      const chat = await guardedChat(store);
      const parts = Array.from({ length: 10_000 }, () => ({ type: 'text', text: 'a' }));
      const many = {
        id: 'chat-1',
        message: { id: 'u2', role: 'user', parts },
      };
      expect(
        await chat.refused(
          postChat(many, { headers: { 'content-length': String(JSON.stringify(many).length) } }),
        ),
      ).toEqual({
        status: 400,
        code: 'INVALID_MESSAGES',
        message: 'message.parts: expected at most 100 parts in a message, received 10000 parts.',
      });

      const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
      const nested = `{"id":"chat-1","message":{"id":"u2","role":"user","parts":[{"type":"data-x","data":${deep}}]}}`;
      const refusal = await chat.refused(postChat(nested));
      expect([refusal.status, refusal.code]).toEqual([400, 'INVALID_MESSAGES']);
      expect(refusal.message).toMatch(
        /^message\.parts\[0\]\.data(\[0\]){64}: expected a JSON value nested less deep, received deeper nesting\.$/,
      );
      const deeper = `{"id":"chat-1","x":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
      expect((await chat.refused(postChat(deeper))).status).toBe(400);

      const notJson = await chat.refused(postChat('{"id":"chat-1","message":'));
      expect([notJson.status, notJson.code]).toEqual([400, 'INVALID_JSON']);
      expect(notJson.message).toMatch(/^Expected a JSON body, received text JSON cannot parse \(/);
      const latin1 = new Request(CHAT_URL, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x7d]),
      });
      expect(await chat.refused(latin1)).toEqual({
        status: 400,
        code: 'INVALID_JSON',
        message: 'Expected a JSON body in UTF-8, received bytes that are not UTF-8.',
      });
      for (const [type, received] of [
        ['text/plain', 'content-type "text/plain"'],
        ['application/x-www-form-urlencoded', 'content-type "application/x-www-form-urlencoded"'],
        ['', 'no content type'],
      ]) {
        const request = new Request(CHAT_URL, {
          method: 'POST',
          headers: type ? { 'content-type': type } : {},
          body: JSON.stringify(userMessage('chat-1', 'hi')),
        });
        if (!type) request.headers.delete('content-type');
        expect(await chat.refused(request)).toEqual({
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: `Expected a JSON body (content-type: application/json), received ${received}.`,
        });
      }
    }),
  );

  it(
    'refuses wrong methods (405) and paths (404)',
    withStore(openStore, async (store) => {
      const chat = await guardedChat(store);
      for (const [method, path, allowed] of [
        ['GET', '', 'POST'],
        ['PUT', '', 'POST'],
        ['DELETE', '', 'POST'],
        ['POST', '/chat-1/stream', 'GET'],
        ['DELETE', '/chat-1/messages', 'GET'],
      ]) {
        const request = new Request(`${CHAT_URL}${path}`, {
          method,
          ...(method !== 'GET' && { headers: JSON_HEADERS, body: '{}' }),
        });
        expect(await chat.refused(request)).toEqual({
          status: 405,
          code: 'METHOD_NOT_ALLOWED',
          message: `Expected ${allowed} on this path, received ${method}.`,
        });
      }
      for (const path of [
        '/api/chat/chat-1',
        '/api/chat/chat-1/stream/x',
        '/api/chat/chat-1/runs',
        '/api/chatter',
        `/api/${'a'.repeat(10_000)}`,
      ]) {
        const refusal = await chat.refused(new Request(`http://app.test${path}`));
        expect([refusal.status, refusal.code]).toEqual([404, 'NOT_FOUND']);
        expect(refusal.message).toMatch(
          /^Expected POST \/api\/chat, GET \/api\/chat\/:id\/stream or GET \/api\/chat\/:id\/messages; received GET \//,
        );
        expect(refusal.message.length).toBeLessThan(600);
      }
    }),
  );

  it(
    'refuses path chat ids with control characters, 10 000 characters, bad percent-escapes and escaped lone surrogates',
    withStore(openStore, async (store) => {
      const chat = await guardedChat(store);
      const cases: Array<[string, string]> = [
        ['chat%00one', '8 characters with a control character'],
        ['chat%0Aone', '8 characters with a control character'],
        ['%1B%5B31m', '5 characters with a control character'],
        ['a'.repeat(10_000), '10000 characters'],
        ['', '0 characters'],
      ];
      for (const route of ['stream', 'messages']) {
        for (const [segment, received] of cases) {
          expect(await chat.refused(new Request(`${CHAT_URL}/${segment}/${route}`))).toEqual({
            status: 400,
            code: 'INVALID_REQUEST',
            message: `the path's chat id: expected an id of 1 to 256 characters without control characters or lone surrogates, received ${received}.`,
          });
        }
        for (const segment of ['%E0%A4%A', '%zz', 'chat%', '%ED%A0%80', '%C0%AF']) {
          expect(await chat.refused(new Request(`${CHAT_URL}/${segment}/${route}`))).toEqual({
            status: 400,
            code: 'INVALID_REQUEST',
            message: `the path's chat id: expected UTF-8 percent-encoded as encodeURIComponent does it, received ${JSON.stringify(segment)}.`,
          });
        }
      }
    }),
  );

  it(
    'refuses posted chat ids with control characters, lone surrogates and 10 000 characters',
    withStore(openStore, async (store) => {
      const chat = await guardedChat(store);
      for (const [chatId, received] of [
        ['chat\u0000', '5 characters with a control character'],
        ['chat\u001b[2J', '8 characters with a control character'],
        ['c'.repeat(10_000), '10000 characters'],
      ]) {
        expect(await chat.refused(postChat(userMessage(chatId, 'hi')))).toEqual({
          status: 400,
          code: 'INVALID_REQUEST',
          message: `id: expected an id of 1 to 256 characters without control characters or lone surrogates, received ${received}.`,
        });
      }
      for (const chatId of ['\ud800', 'chat-\udc00', 'x\ud83d']) {
        const refusal = await chat.refused(postChat(userMessage(chatId, 'hi')));
        expect(refusal).toEqual({
          status: 400,
          code: 'INVALID_REQUEST',
          message: `id: expected an id of 1 to 256 characters without control characters or lone surrogates, received ${chatId.length} characters with a lone surrogate.`,
        });
      }
    }),
  );
});
