/**
 * What the chat handler's attack tests share: a session with a tool that needs approval
 * (counting how often it ran), a handler over it, requests as a page (or an attacker)
 * sends them, and a snapshot of everything a refused request must leave as it was — the
 * chat's runs (status, pending calls and their decisions, audit trail, revision), their
 * recorded events and the thread's messages.
 */
import { expect } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import type { Model } from '../../src/ai/model/index.ts';
import {
  type EventsOption,
  type Session,
  type Store,
  session,
} from '../../src/ai/session/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { approvalIdOf, type ChatHandlerOptions, chatHandler } from '../../src/ai/ui/index.ts';
import { v } from '../../src/validate/index.ts';

export const CHAT_URL = 'http://app.test/api/chat';
export const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * A chat handler over a fresh session of `store`, with `refund` (needs approval), `lookup`
 * (does not) and `ask_user` (suspends for the page's answer, `addToolOutput`).
 */
export function chatUnderAttack(
  store: Store,
  model: Model,
  options: Omit<ChatHandlerOptions, 'session'> & { events?: EventsOption; leaseMs?: number } = {},
) {
  const executed: string[] = [];
  const refund = tool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: v.object({ orderId: v.string() }),
    requiresApproval: true,
    execute: ({ orderId }: { orderId: string }) => {
      executed.push(`refund ${orderId}`);
      return `refunded ${orderId}`;
    },
  });
  const lookup = tool({
    name: 'lookup',
    description: 'Look an order up.',
    parameters: v.object({ orderId: v.string() }),
    execute: ({ orderId }: { orderId: string }) => {
      executed.push(`lookup ${orderId}`);
      return `order ${orderId}: shipped`;
    },
  });
  const askUser = tool({
    name: 'ask_user',
    description: 'Ask the user a question; the page answers it.',
    parameters: v.object({ question: v.string() }),
    execute: (_args: { question: string }, ctx) => {
      if (ctx.resumeValue === undefined) ctx.suspend({ reason: 'needs an answer' });
      executed.push(`ask_user ${String(ctx.resumeValue)}`);
      return `the user answered ${String(ctx.resumeValue)}`;
    },
  });
  const { events = true, leaseMs, ...handlerOptions } = options;
  const runs = session({
    store,
    agent: agent({ model, tools: [refund, lookup, askUser] }),
    events,
    ...(leaseMs !== undefined && { leaseMs }),
  });
  const errors: unknown[] = [];
  const chat = chatHandler({
    session: runs,
    auth: () => ({ by: 'alice' }),
    onError: (error) => errors.push(error),
    pollMs: 10,
    ...handlerOptions,
  });
  return { runs, chat, executed, errors };
}

/** A POST of `body` (JSON-encoded unless a string) to the chat route. */
export function postChat(body: unknown, init: RequestInit = {}): Request {
  return new Request(CHAT_URL, {
    method: 'POST',
    ...init,
    headers: { ...JSON_HEADERS, ...(init.headers as Record<string, string>) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A user message of the one-message form. */
export const userMessage = (chatId: string, text: string, id = 'u1') => ({
  id: chatId,
  message: { id, role: 'user', parts: [{ type: 'text', text }] },
});

/** A tool part answering call `toolCallId` of run `runId` with an approval response, as `useChat` posts it. */
export function approvalPart(
  runId: string,
  toolCallId: string,
  overrides: { approved?: boolean; input?: unknown; toolName?: string; approvalId?: string } = {},
) {
  return {
    type: `tool-${overrides.toolName ?? 'refund'}`,
    toolCallId,
    state: 'approval-responded',
    input: overrides.input ?? { orderId: 'o-17' },
    approval: {
      id: overrides.approvalId ?? approvalIdOf(runId, toolCallId),
      approved: overrides.approved ?? true,
    },
  };
}

/** The assistant message `messageId` (a run's id) with `parts`, posted to `chatId`. */
export const assistantAnswer = (chatId: string, messageId: string, parts: unknown[]) => ({
  id: chatId,
  message: { id: messageId, role: 'assistant', parts },
});

/** The refusal `response` is: its status, code, and message. */
export async function refusalOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

/**
 * Everything of chat `chatId` a request could change: its runs as `get` shows them
 * (revision, pending calls, audit), each one's recorded events, and the thread page.
 */
export async function chatSnapshot(runs: Session, chatId: string) {
  const list = await runs.list({ threadId: chatId });
  const detail = [];
  for (const listed of list) {
    const run = await runs.get(listed.runId);
    const events = [];
    for await (const event of runs.events(listed.runId, { follow: false })) events.push(event);
    detail.push({ run, events });
  }
  return { runs: detail, thread: await runs.thread(chatId, { limit: 1000 }) };
}

/** Reads a whole response body as text (a stream to its `[DONE]`). */
export const bodyText = (response: Response) => response.text();

/** Waits until `check` holds, polling (the run goes on in the background). */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('until: timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
