/**
 * `chatHandler` driven by `ai`'s own chat client (the code behind `useChat`): a text turn,
 * an approval round trip with `by` from the server, a denial, a suspension answered by
 * the page, a reload that resumes the stream, and the refusals a page meets.
 */
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import {
  type GenerateRequest,
  type Model,
  type ScriptedTurn,
  type StreamEvent,
  scriptedModel,
} from '../../../src/ai/model/index.ts';
import { memoryStore, type Session, session } from '../../../src/ai/session/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { type ChatHandlerOptions, chatHandler } from '../../../src/ai/ui/index.ts';
import { v } from '../../../src/validate/index.ts';
import { TestChat } from '../../helpers/ui-chat-client.ts';

const BASE = 'http://fino.test/api/chat';
let refunds = 0;
const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: v.object({ orderId: v.string() }),
  requiresApproval: true,
  execute: ({ orderId }: { orderId: string }) => {
    refunds++;
    return `refunded ${orderId}`;
  },
});
const askUser = tool({
  name: 'ask_user',
  description: 'Ask the user a question.',
  parameters: v.object({ question: v.string() }),
  execute: (_args: { question: string }, ctx) =>
    ctx.resumeValue === undefined
      ? ctx.suspend({ reason: 'needs an answer', payload: { choices: ['yes', 'no'] } })
      : `the user said ${JSON.stringify(ctx.resumeValue)}`,
});

function setUp(
  turns: ScriptedTurn[] | Model,
  options: Partial<ChatHandlerOptions> = {},
): { runs: Session; fetch: (request: Request) => Promise<Response> } {
  const model = Array.isArray(turns) ? scriptedModel(turns) : turns;
  const runs = session({
    store: memoryStore(),
    agent: agent({ model, tools: [refund, askUser] }),
    events: true,
  });
  const handler = chatHandler({ session: runs, auth: () => ({ by: 'alice' }), ...options });
  return { runs, fetch: handler.fetch };
}

const refundTurns = (): ScriptedTurn[] => [
  {
    text: 'Let me refund it.',
    toolCalls: [{ id: 'c1', name: 'refund', args: { orderId: 'o-17' } }],
  },
  (request: GenerateRequest) => {
    const last = JSON.stringify(request.messages.at(-1));
    return last.includes('refunded o-17') ? 'Refunded o-17.' : 'I did not refund it.';
  },
];

/** Waits until `check` holds (the chat's automatic send runs after the call that caused it). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const toolPart = (message: UIMessage | undefined, name: string) =>
  message?.parts.find((part) => part.type === `tool-${name}`) as
    | { state: string; approval?: { id: string }; output?: unknown; toolCallId: string }
    | undefined;
const texts = (message: UIMessage | undefined) =>
  (message?.parts ?? []).filter((part) => part.type === 'text').map((part) => part.text);

async function history(fetch: (request: Request) => Promise<Response>, chatId: string) {
  const response = await fetch(new Request(`${BASE}/${chatId}/messages`));
  expect(response.status).toBe(200);
  return (await response.json()) as UIMessage[];
}

describe('chatHandler', () => {
  it('streams a text turn to the page and keeps it in the thread for a reload', async () => {
    const { fetch } = setUp(['Hello from fino!']);
    const chat = new TestChat({ id: 'chat-text', handler: fetch });
    await chat.sendMessage({ text: 'Hi' });
    expect(chat.errors).toEqual([]);
    expect(chat.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(texts(chat.lastMessage)).toEqual(['Hello from fino!']);

    const reloaded = await history(fetch, 'chat-text');
    expect(reloaded.map((message) => [message.id, message.role])).toEqual([
      ['chat-text:0', 'user'],
      [chat.lastMessage!.id, 'assistant'],
    ]);
    expect(texts(reloaded[1])).toEqual(['Hello from fino!']);
  });

  it('takes the whole conversation too, reading only its newest message', async () => {
    const { runs, fetch } = setUp(['One.', 'Two.']);
    const chat = new TestChat({ id: 'chat-whole', handler: fetch, wholeConversation: true });
    await chat.sendMessage({ text: 'First' });
    await chat.sendMessage({ text: 'Second' });
    expect(texts(chat.lastMessage)).toEqual(['Two.']);
    const page = await runs.thread('chat-whole');
    expect(page?.messages.map((entry) => entry.message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('asks approval in the chat, decides it as the auth hook names the user, and goes on in the same message', async () => {
    refunds = 0;
    const { runs, fetch } = setUp(refundTurns());
    const chat = new TestChat({ id: 'chat-refund', handler: fetch });
    await chat.sendMessage({ text: 'Refund o-17' });
    const request = toolPart(chat.lastMessage, 'refund');
    expect(request?.state).toBe('approval-requested');
    const runId = chat.lastMessage!.id;

    await chat.addToolApprovalResponse({ id: request!.approval!.id, approved: true });
    await until(() => texts(chat.lastMessage).includes('Refunded o-17.'), 'the answer');
    expect(chat.errors).toEqual([]);
    expect(chat.messages).toHaveLength(2);
    expect(chat.lastMessage!.id).toBe(runId);
    expect(toolPart(chat.lastMessage, 'refund')).toMatchObject({
      state: 'output-available',
      output: 'refunded o-17',
    });
    expect(refunds).toBe(1);
    // A reload shows the message as the live page did, the approval included (from the audit).
    const reloaded = await history(fetch, 'chat-refund');
    expect(reloaded[1].parts).toEqual(chat.lastMessage!.parts);
    const run = await runs.get(runId);
    expect(run?.status).toBe('done');
    expect(run?.audit).toMatchObject([{ action: 'approve', toolCallId: 'c1', by: 'alice' }]);
  });

  it('a denial reaches the model as the reason, and the part shows denied', async () => {
    refunds = 0;
    const { runs, fetch } = setUp(refundTurns());
    const chat = new TestChat({ id: 'chat-deny', handler: fetch });
    await chat.sendMessage({ text: 'Refund o-17' });
    const request = toolPart(chat.lastMessage, 'refund');
    await chat.addToolApprovalResponse({
      id: request!.approval!.id,
      approved: false,
      reason: 'not eligible',
    });
    await until(() => texts(chat.lastMessage).includes('I did not refund it.'), 'the answer');
    expect(toolPart(chat.lastMessage, 'refund')?.state).toBe('output-denied');
    expect(refunds).toBe(0);
    expect((await history(fetch, 'chat-deny'))[1].parts).toEqual(chat.lastMessage!.parts);
    const run = await runs.get(chat.lastMessage!.id);
    expect(run?.audit).toMatchObject([{ action: 'reject', by: 'alice', note: 'not eligible' }]);
  });

  it('a denial without a reason reloads as the page showed it, not with the server default', async () => {
    const { fetch } = setUp(refundTurns());
    const chat = new TestChat({ id: 'chat-deny-quiet', handler: fetch });
    await chat.sendMessage({ text: 'Refund o-17' });
    const request = toolPart(chat.lastMessage, 'refund');
    await chat.addToolApprovalResponse({ id: request!.approval!.id, approved: false });
    await until(() => texts(chat.lastMessage).includes('I did not refund it.'), 'the answer');
    const reloaded = await history(fetch, 'chat-deny-quiet');
    expect(reloaded[1].parts).toEqual(chat.lastMessage!.parts);
  });

  it('a suspension shows as a data part the page answers with the call output', async () => {
    const { fetch } = setUp([
      { toolCalls: [{ id: 'q1', name: 'ask_user', args: { question: 'Ship today?' } }] },
      (request: GenerateRequest) =>
        JSON.stringify(request.messages.at(-1)).includes('the user said \\"yes\\"')
          ? 'Shipping today.'
          : 'Not shipping.',
    ]);
    const chat = new TestChat({ id: 'chat-ask', handler: fetch });
    await chat.sendMessage({ text: 'Ship my order' });
    const suspended = chat.lastMessage!.parts.find((part) => part.type === 'data-fino-suspended');
    expect(suspended).toMatchObject({
      data: { toolCallId: 'q1', toolName: 'ask_user', reason: 'needs an answer' },
    });
    await chat.addToolOutput({ tool: 'ask_user', toolCallId: 'q1', output: 'yes' });
    await chat.sendMessage();
    await until(() => texts(chat.lastMessage).includes('Shipping today.'), 'the answer');
    expect(toolPart(chat.lastMessage, 'ask_user')).toMatchObject({
      state: 'output-available',
      output: 'the user said "yes"',
    });
  });

  it('a reload mid-stream resumes the run from the store: the question and the whole answer, once', async () => {
    const gate = gatedModel(['Part one. ', 'Part two.']);
    const { fetch } = setUp(gate.model);
    const first = new TestChat({ id: 'chat-reload', handler: fetch });
    const sending = first.sendMessage({ text: 'Tell me' });
    await until(() => texts(first.lastMessage).join('') === 'Part one. ', 'the first part');
    await first.stop(); // the page goes away mid-stream
    await sending;

    const second = new TestChat({
      id: 'chat-reload',
      handler: fetch,
      messages: await history(fetch, 'chat-reload'),
    });
    expect(second.messages.map((message) => message.role)).toEqual(['user']);
    const resuming = second.resumeStream();
    await until(() => texts(second.lastMessage).join('') === 'Part one. ', 'the replay');
    gate.open();
    await resuming;
    await until(() => second.status === 'ready', 'the end of the stream');
    expect(second.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(texts(second.lastMessage).join('')).toBe('Part one. Part two.');
    expect(second.errors).toEqual([]);

    const none = await fetch(new Request(`${BASE}/chat-reload/stream`));
    expect(none.status).toBe(204);
  });

  it('refuses a new message while the run waits, naming the call; a failed run gives way', async () => {
    const { runs, fetch } = setUp([...refundTurns()]);
    const chat = new TestChat({ id: 'chat-busy', handler: fetch });
    await chat.sendMessage({ text: 'Refund o-17' });
    const response = await fetch(post({ id: 'chat-busy', message: userMessage('u2', 'Hello?') }));
    expect(response.status).toBe(409);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('THREAD_BUSY');
    expect(body.error.message).toContain('refund (c1)');

    const failing = setUp([new Error('provider down'), 'Back again.']);
    const retry = new TestChat({ id: 'chat-failed', handler: failing.fetch });
    await retry.sendMessage({ text: 'Hi' });
    const failed = retry.lastMessage!;
    expect((await failing.runs.get(failed.id))?.status).toBe('error');
    await retry.sendMessage({ text: 'Hi again' });
    expect(texts(retry.lastMessage)).toEqual(['Back again.']);
    expect(await failing.runs.get(failed.id)).toMatchObject({
      status: 'cancelled',
      audit: [{ action: 'cancel', by: 'alice' }],
    });
    expect(runs).toBeDefined();
  });

  it('answers 401, 403, 404, 405 and 400 before touching the session', async () => {
    const denied = setUp(['x'], {
      auth: (request) =>
        request.headers.get('authorization') === 'Bearer ok' ? { by: 'alice' } : undefined,
      authorize: (_actor, chatId) => chatId !== 'not-yours',
    });
    const send = (init: RequestInit & { url?: string }) =>
      denied.fetch(new Request(init.url ?? BASE, init));
    const json = { 'content-type': 'application/json' };
    const body = JSON.stringify({ id: 'c', message: userMessage('u1', 'Hi') });
    const cases: Array<[RequestInit & { url?: string }, number, string]> = [
      [{ method: 'POST', headers: json, body }, 401, 'UNAUTHENTICATED'],
      [
        {
          method: 'POST',
          headers: { ...json, authorization: 'Bearer ok' },
          body: JSON.stringify({ id: 'not-yours', message: userMessage('u1', 'Hi') }),
        },
        403,
        'FORBIDDEN',
      ],
      [{ url: `${BASE}/x/elsewhere`, headers: { authorization: 'Bearer ok' } }, 404, 'NOT_FOUND'],
      [{ method: 'GET', headers: { authorization: 'Bearer ok' } }, 405, 'METHOD_NOT_ALLOWED'],
      [
        {
          method: 'POST',
          headers: { ...json, authorization: 'Bearer ok' },
          body: JSON.stringify({
            id: 'c',
            messages: [userMessage('u1', 'Hi')],
            trigger: 'regenerate-message',
            messageId: 'u1',
          }),
        },
        400,
        'INVALID_REQUEST',
      ],
      [
        { url: `${BASE}/%E0%A4%A/stream`, headers: { authorization: 'Bearer ok' } },
        400,
        'INVALID_REQUEST',
      ],
    ];
    for (const [init, status, code] of cases) {
      const response = await send(init);
      const refused = (await response.json()) as { error: { code: string } };
      expect([response.status, refused.error.code]).toEqual([status, code]);
    }
    expect(await denied.runs.list()).toEqual([]);
  });

  it('asks auth before reading a body, names the allowed method, and checks its options', async () => {
    const { fetch } = setUp(['x'], { auth: () => undefined });
    const huge = new Request(BASE, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect((await fetch(huge)).status).toBe(401);
    const open = setUp(['x']);
    const wrong = await open.fetch(new Request(`${BASE}/chat-1/stream`, { method: 'DELETE' }));
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET']);
    expect(() => chatHandler({ session: open.runs, pollMs: 5 })).toThrow(
      /pollMs: expected an integer from 10 to 60000/,
    );
    expect(() => chatHandler({ session: open.runs, maxStreams: 0 })).toThrow(
      /maxStreams: expected a positive integer/,
    );
  });

  it('streams at most maxStreams answers at once: past it, 503 TOO_MANY_STREAMS before any run starts', async () => {
    const gate = gatedModel(['Part one. ', 'Part two.']);
    const { runs, fetch } = setUp(gate.model, { maxStreams: 1 });
    const first = await fetch(post({ id: 'chat-a', message: userMessage('u1', 'Hi') }));
    const reader = first.body!.getReader();
    await reader.read();
    const second = await fetch(post({ id: 'chat-b', message: userMessage('u2', 'Hi') }));
    expect([second.status, second.headers.get('retry-after')]).toEqual([503, '1']);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe(
      'TOO_MANY_STREAMS',
    );
    expect(await runs.list({ threadId: 'chat-b' })).toEqual([]);
    gate.open();
    while (!(await reader.read()).done) {}
    await until(
      async () => (await fetch(new Request(`${BASE}/chat-a/stream`))).status === 204,
      'the run to end',
    );
    const third = await fetch(post({ id: 'chat-b', message: userMessage('u3', 'Hi') }));
    expect(third.status).toBe(200);
    await third.text();
  });

  it('GET …/messages of an unknown chat is an empty list; GET …/stream is 204', async () => {
    const { fetch } = setUp(['x']);
    expect(await history(fetch, 'new-chat')).toEqual([]);
    expect((await fetch(new Request(`${BASE}/new-chat/stream`))).status).toBe(204);
  });
});

const userMessage = (id: string, text: string) => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

const post = (body: unknown) =>
  new Request(BASE, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A model that streams its first delta, waits for `open()`, then streams the rest. */
function gatedModel(deltas: string[]): { model: Model; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const model: Model = {
    id: 'gated',
    generate: () => Promise.reject(new Error('gatedModel: stream only')),
    async *stream(): AsyncIterable<StreamEvent> {
      for (const [index, text] of deltas.entries()) {
        if (index === 1) await gate;
        yield { type: 'text-delta', text };
      }
      const text = deltas.join('');
      yield {
        type: 'stop',
        result: {
          message: { role: 'assistant', content: [{ type: 'text', text }] },
          text,
          toolCalls: [],
          stopReason: 'end',
          usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
        },
      };
    },
  };
  return { model, open };
}
