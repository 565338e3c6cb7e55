/**
 * readChatRequest reads what ai 7's own client posts: `Chat` (the class `useChat` runs)
 * over `DefaultChatTransport`, with a `fetch` that hands the request to readChatRequest
 * and answers with a UI message stream (reasoning with provider metadata, a tool call
 * with its output, one waiting for approval). Every message the client keeps is accepted
 * unchanged; the approval the page gives is found on the last message.
 */
import { Chat } from '@ai-sdk/react';
import {
  type UIMessageChunk as AiChunk,
  type UIMessage as AiUIMessage,
  createUIMessageStream,
  createUIMessageStreamResponse,
  DefaultChatTransport,
} from 'ai';
import { describe, expect, it } from 'vitest';
import {
  type ChatRequest,
  pendingToolResponses,
  readChatRequest,
  UIRequestError,
} from '../../../src/ai/ui/index.ts';

/** The chunks of each answer: a tool turn with reasoning, then a call waiting for approval. */
const ANSWERS: AiChunk[][] = [
  [
    { type: 'start', messageId: 'run-1' },
    { type: 'start-step' },
    { type: 'reasoning-start', id: 'reasoning-0-0' },
    { type: 'reasoning-delta', id: 'reasoning-0-0', delta: 'Look it up.' },
    {
      type: 'reasoning-end',
      id: 'reasoning-0-0',
      providerMetadata: { anthropic: { signature: 'sig-1' } },
    },
    {
      type: 'tool-input-available',
      toolCallId: 'c1',
      toolName: 'weather',
      input: { city: 'Paris' },
    },
    { type: 'tool-output-available', toolCallId: 'c1', output: '21 °C' },
    { type: 'finish-step' },
    { type: 'start-step' },
    { type: 'text-start', id: 'text-1-0' },
    { type: 'text-delta', id: 'text-1-0', delta: 'It is 21 °C.' },
    { type: 'text-end', id: 'text-1-0' },
    { type: 'finish-step' },
    { type: 'finish', finishReason: 'stop' },
  ],
  [
    { type: 'start', messageId: 'run-2' },
    { type: 'start-step' },
    {
      type: 'tool-input-available',
      toolCallId: 'c2',
      toolName: 'refund',
      input: { order: 'o-17' },
    },
    { type: 'tool-approval-request', approvalId: 'run-2/c2', toolCallId: 'c2' },
    { type: 'finish-step' },
    { type: 'finish', finishReason: 'tool-calls' },
  ],
  [{ type: 'start', messageId: 'run-3' }, { type: 'finish' }],
];

function chatServer() {
  const received: ChatRequest[] = [];
  const posted: unknown[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const request = new Request(url, init);
    posted.push(JSON.parse(await request.clone().text()));
    try {
      received.push(await readChatRequest(request));
    } catch (error) {
      if (error instanceof UIRequestError) return error.toResponse();
      throw error;
    }
    const chunks = ANSWERS[received.length - 1];
    const stream = createUIMessageStream({
      execute: ({ writer }) => {
        for (const chunk of chunks) writer.write(chunk);
      },
    });
    return createUIMessageStreamResponse({ stream });
  };
  return { fetch, received, posted };
}

describe('readChatRequest', () => {
  it("accepts, unchanged, every request ai's Chat posts through DefaultChatTransport", async () => {
    const server = chatServer();
    const chat = new Chat<AiUIMessage>({
      id: 'chat-1',
      transport: new DefaultChatTransport({
        api: 'http://app.test/api/chat',
        fetch: server.fetch,
        body: { tenant: 'acme' },
      }),
    });
    await chat.sendMessage({ text: 'Weather in Paris?' });
    await chat.sendMessage({ text: 'Refund o-17' });
    const approval = chat.messages.at(-1)!.parts.find((p) => p.type === 'tool-refund') as {
      approval: { id: string };
    };
    await chat.addToolApprovalResponse({
      id: approval.approval.id,
      approved: false,
      reason: 'not eligible',
    });
    await chat.sendMessage();
    expect(chat.error).toBeUndefined();
    expect(server.received).toHaveLength(3);
    server.received.forEach((request, i) => {
      const body = server.posted[i] as { id: string; messages: unknown[]; trigger: string };
      expect(request.messages).toEqual(body.messages);
      expect(request).toMatchObject({
        id: 'chat-1',
        trigger: 'submit-message',
        body: { tenant: 'acme' },
      });
    });
    // The reasoning kept its provider metadata, the tool part its state and output.
    const assistant = server.received[1].messages[1];
    expect(assistant.parts).toContainEqual(
      expect.objectContaining({
        type: 'reasoning',
        providerMetadata: { anthropic: { signature: 'sig-1' } },
      }),
    );
    expect(pendingToolResponses(server.received[2].messages.at(-1)!)).toEqual({
      approvals: [
        {
          approvalId: 'run-2/c2',
          toolCallId: 'c2',
          toolName: 'refund',
          approved: false,
          reason: 'not eligible',
        },
      ],
      outputs: [],
    });
  });

  it('reads the one-message form, a regeneration and the extra body fields', async () => {
    const message = { id: 'm9', role: 'user', parts: [{ type: 'text', text: 'Hello' }] };
    const post = (body: unknown) =>
      readChatRequest(
        new Request('http://app.test/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify(body),
        }),
      );
    expect(await post({ id: 'thread-1', message })).toEqual({
      id: 'thread-1',
      messages: [message],
      trigger: 'submit-message',
      body: {},
    });
    await expect(post({ id: 'thread-1', message: { ...message, role: 'tool' } })).rejects.toThrow(
      'message.role: expected one of "user", "assistant", received string "tool".',
    );
    expect(
      await post({
        id: 'c',
        messages: [message],
        trigger: 'regenerate-message',
        messageId: 'm9',
        user: { plan: 'pro' },
      }),
    ).toEqual({
      id: 'c',
      messages: [message],
      trigger: 'regenerate-message',
      messageId: 'm9',
      body: { user: { plan: 'pro' } },
    });
  });
});
