/**
 * Attacks on who the chat handler believes is asking, and on a chat's turn order (issue
 * 28; decision 260): an `auth` hook that recognises no one (401), throws (a 500 through
 * the framework, the process lives on), an `authorize` that refuses (403) — none touches
 * the session; the `by` of the audit trail is the auth hook's whatever the page writes in
 * the body, the metadata or the headers; a new message while the run waits for approval
 * is 409 THREAD_BUSY naming the call, and after a failed run the next message works (the
 * failed run cancelled, by the actor).
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, Model } from '../../src/ai/model/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import type { Store } from '../../src/ai/session/index.ts';
import { nodeListener } from '../../src/ai/ui/index.ts';
import { sessionStores, withStore } from '../helpers/session-stores.ts';
import {
  approvalPart,
  assistantAnswer,
  CHAT_URL,
  chatSnapshot,
  chatUnderAttack,
  postChat,
  refusalOf,
  until,
  userMessage,
} from '../helpers/ui-chat-attack.ts';

const open = sessionStores('hostile-ui-chat-actors');

const askRefund = {
  text: 'Refunding.',
  toolCalls: [{ id: 'c1', name: 'refund', args: { orderId: 'o-17' } }],
};

/** `model`, except that its first call fails as a provider outage would. */
function failingFirst(model: Model): Model {
  let calls = 0;
  return {
    id: 'failing-first',
    generate: (request: GenerateRequest) =>
      calls++ === 0 ? Promise.reject(new Error('provider down')) : model.generate(request),
    async *stream(request: GenerateRequest) {
      if (calls++ === 0) throw new Error('provider down');
      yield* model.stream(request);
    },
  };
}

/** The stores the chats live in: in memory, and a SQLite file's. */
const STORES = [
  ['memory', open.memory],
  ['sqlite', open.sqlite],
] as const;

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

describe.each(STORES)('who asks, on a %s session', (_name, openStore) => {
  /** A chat-1 waiting for approval; `auth` and `authorize` decided per request by `who`. */
  async function guarded(store: Store) {
    const who = {
      auth: 'alice' as string | undefined | Error,
      allowed: true,
    };
    const fixture = chatUnderAttack(store, scriptedModel([askRefund, 'Refunded o-17.']), {
      auth: () => {
        if (who.auth instanceof Error) throw who.auth;
        return who.auth === undefined ? undefined : { by: who.auth };
      },
      authorize: () => who.allowed,
    });
    await (await fixture.chat.fetch(postChat(userMessage('chat-1', 'Refund o-17')))).text();
    const runId = (await fixture.runs.thread('chat-1', { limit: 1 }))?.activeRunId as string;
    return { ...fixture, who, runId };
  }

  it(
    'auth recognising no one is 401, authorize refusing is 403, on every route; the session is untouched',
    withStore(openStore, async (store) => {
      const chat = await guarded(store);
      const before = await chatSnapshot(chat.runs, 'chat-1');
      const requests = () => [
        postChat(assistantAnswer('chat-1', chat.runId, [approvalPart(chat.runId, 'c1')])),
        postChat(userMessage('chat-1', 'Something else')),
        new Request(`${CHAT_URL}/chat-1/stream`),
        new Request(`${CHAT_URL}/chat-1/messages`),
      ];
      chat.who.auth = undefined;
      for (const request of requests()) {
        expect(await refusalOf(await chat.chat.fetch(request))).toEqual({
          status: 401,
          code: 'UNAUTHENTICATED',
          message:
            'Expected credentials this server accepts; the request carries none it recognises.',
        });
      }
      chat.who.auth = 'mallory';
      chat.who.allowed = false;
      for (const request of requests()) {
        expect(await refusalOf(await chat.chat.fetch(request))).toEqual({
          status: 403,
          code: 'FORBIDDEN',
          message: 'This caller may not use chat "chat-1".',
        });
      }
      expect(await chatSnapshot(chat.runs, 'chat-1')).toEqual(before);
      expect(chat.executed).toEqual([]);
    }),
  );

  it(
    'auth throwing is a 500 through the framework; the process and the session live on',
    withStore(openStore, async (store) => {
      const chat = await guarded(store);
      const before = await chatSnapshot(chat.runs, 'chat-1');
      chat.who.auth = new Error('identity provider down');
      await expect(chat.chat.fetch(new Request(`${CHAT_URL}/chat-1/messages`))).rejects.toThrow(
        'identity provider down',
      );
      const reported: unknown[] = [];
      server = createServer(
        nodeListener((request) => chat.chat.fetch(request), {
          onError: (error) => reported.push(error),
        }),
      );
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      const url = `http://127.0.0.1:${port}/api/chat`;
      const approve = () =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(
            assistantAnswer('chat-1', chat.runId, [approvalPart(chat.runId, 'c1')]),
          ),
        });
      const failed = await approve();
      expect(failed.status).toBe(500);
      await failed.text();
      expect(reported).toHaveLength(1);
      expect(await chatSnapshot(chat.runs, 'chat-1')).toEqual(before);
      // The same server answers the next request, once the identity provider is back.
      chat.who.auth = 'alice';
      const approved = await approve();
      expect(approved.status).toBe(200);
      expect(await approved.text()).toContain('Refunded o-17.');
      expect(chat.executed).toEqual(['refund o-17']);
    }),
  );

  it(
    "records the auth hook's by, whatever the page writes in the body, the metadata or the headers",
    withStore(openStore, async (store) => {
      const chat = await guarded(store);
      const forged = {
        ...assistantAnswer('chat-1', chat.runId, [approvalPart(chat.runId, 'c1')]),
        by: 'mallory',
        actor: { by: 'mallory' },
        note: 'approved by mallory',
      };
      (forged.message as Record<string, unknown>).metadata = { by: 'mallory', fino: { by: 'x' } };
      const response = await chat.chat.fetch(
        postChat(forged, {
          headers: { 'x-fino-by': 'mallory', 'x-user': 'mallory', authorization: 'mallory' },
        }),
      );
      expect(response.status).toBe(200);
      await response.text();
      await until(async () => (await chat.runs.get(chat.runId))?.status === 'done');
      const audit = (await chat.runs.get(chat.runId))?.audit ?? [];
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'approve', toolCallId: 'c1', by: 'alice' });
      expect(JSON.stringify(audit)).not.toContain('mallory');
    }),
  );

  it(
    'a new message while the run waits for approval is 409 THREAD_BUSY naming the call',
    withStore(openStore, async (store) => {
      const chat = await guarded(store);
      const before = await chatSnapshot(chat.runs, 'chat-1');
      const refusal = await refusalOf(
        await chat.chat.fetch(postChat(userMessage('chat-1', 'Never mind', 'u2'))),
      );
      expect(refusal).toEqual({
        status: 409,
        code: 'THREAD_BUSY',
        message: `Chat "chat-1" waits for an answer on refund (c1) in run "${chat.runId}": approve or deny it (or add its output) before sending a new message.`,
      });
      expect(await chatSnapshot(chat.runs, 'chat-1')).toEqual(before);
      expect((await chat.runs.list()).length).toBe(1);
    }),
  );

  it(
    'after a failed run the next message works; the failed run is cancelled by the actor',
    withStore(openStore, async (store) => {
      const chat = chatUnderAttack(store, failingFirst(scriptedModel(['Back again.'])), {
        auth: () => ({ by: 'bob' }),
      });
      const failed = await chat.chat.fetch(postChat(userMessage('chat-1', 'Hello')));
      const failedText = await failed.text();
      expect(failedText).toContain('"type":"error"');
      expect(failedText).toContain('provider down');
      const [first] = await chat.runs.list({ threadId: 'chat-1' });
      await until(async () => (await chat.runs.get(first.runId))?.status === 'error');

      const next = await chat.chat.fetch(
        postChat(userMessage('chat-1', 'Hello again', 'u2'), {
          headers: { 'x-fino-by': 'mallory' },
        }),
      );
      expect(next.status).toBe(200);
      expect(await next.text()).toContain('Back again.');
      const superseded = await chat.runs.get(first.runId);
      expect(superseded?.status).toBe('cancelled');
      expect(superseded?.audit).toEqual([
        expect.objectContaining({
          action: 'cancel',
          by: 'bob',
          note: 'a new message of the chat superseded this failed run',
        }),
      ]);
      const page = await chat.runs.thread('chat-1', { limit: 10 });
      expect(page?.messages.map((m) => m.message.role)).toEqual(['user', 'assistant']);
      expect(chat.errors).toEqual([]);
    }),
  );
});

describe.each(STORES)('two tabs sending at once, on a %s session', (_name, openStore) => {
  /** Two new messages posted to chat-1 at once: their statuses, and the refusal's body. */
  async function sendBoth(chat: ReturnType<typeof chatUnderAttack>) {
    const responses = await Promise.all([
      chat.chat.fetch(postChat(userMessage('chat-1', 'From tab A', 'ua'))),
      chat.chat.fetch(postChat(userMessage('chat-1', 'From tab B', 'ub'))),
    ]);
    const refusals = [];
    for (const response of responses) {
      if (response.status === 200) await response.text();
      else refusals.push(await refusalOf(response));
    }
    return { statuses: responses.map((r) => r.status).sort(), refusals };
  }

  it(
    'on an idle chat: one run starts, the other tab is 409 THREAD_BUSY',
    withStore(openStore, async (store) => {
      const chat = chatUnderAttack(store, scriptedModel(['One answer.', 'Another.']));
      const { statuses, refusals } = await sendBoth(chat);
      expect(statuses).toEqual([200, 409]);
      expect(refusals[0].code).toBe('THREAD_BUSY');
      expect(refusals[0].message).toContain('Chat "chat-1" is answering another message');
      expect(await chat.runs.list({ threadId: 'chat-1' })).toHaveLength(1);
      await until(async () => (await chat.runs.thread('chat-1'))?.activeRunId === undefined);
      const page = await chat.runs.thread('chat-1', { limit: 10 });
      expect(page?.messages.map((m) => m.message.role)).toEqual(['user', 'assistant']);
      expect(chat.errors).toEqual([]);
    }),
  );

  it(
    'after a failed run: one tab supersedes it, the other is 409 THREAD_BUSY (not ALREADY_DECIDED)',
    withStore(openStore, async (store) => {
      const chat = chatUnderAttack(store, failingFirst(scriptedModel(['Back.', 'Again.'])));
      await (await chat.chat.fetch(postChat(userMessage('chat-1', 'Hello')))).text();
      const [failed] = await chat.runs.list({ threadId: 'chat-1' });
      await until(async () => (await chat.runs.get(failed.runId))?.status === 'error');
      const { statuses, refusals } = await sendBoth(chat);
      expect(statuses).toEqual([200, 409]);
      expect(refusals[0].code).toBe('THREAD_BUSY');
      expect(refusals[0].message).toContain('Chat "chat-1" is answering another message');
      const cancelled = await chat.runs.get(failed.runId);
      expect(cancelled?.status).toBe('cancelled');
      expect(cancelled?.audit?.filter((entry) => entry.action === 'cancel')).toHaveLength(1);
      expect(await chat.runs.list({ threadId: 'chat-1' })).toHaveLength(2);
      expect(chat.errors).toEqual([]);
    }),
  );
});
