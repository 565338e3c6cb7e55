/**
 * A fake OpenAI Chat Completions server on 127.0.0.1 whose answer is a function of the
 * request (which agent asks — its system prompt — and what the conversation holds), so
 * agents that hand off to each other get their own scripts whatever the order. Both
 * fino's `openai()` and the OpenAI Agents SDK speak to it. Non-streaming answers only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Chat Completions request body, as received. */
export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown[] }>;
  tools?: Array<{ type: 'function'; function: { name: string; description?: string } }>;
}

/** What the server answers: text, tool calls, or (to stall or fail) a handler of the response. */
export type ChatReply =
  | { text: string }
  | { toolCalls: Array<{ name: string; args: unknown; id?: string }> }
  | ((res: ServerResponse) => void);

export interface ChatServer {
  /** The base URL (`http://127.0.0.1:<port>/v1`). */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

/** The system prompt of a request (the asking agent's instructions), `''` without one. */
export const systemOf = (body: ChatRequest): string =>
  String(body.messages.find((m) => m.role === 'system')?.content ?? '');

/** The text of the last user message that is not tool results. */
export const lastUserText = (body: ChatRequest): string =>
  String(body.messages.findLast((m) => m.role === 'user')?.content ?? '');

/** Whether the conversation holds a tool result (`role: 'tool'`) whose call was `name`. */
export function calledTool(body: ChatRequest, name: string): boolean {
  const ids = new Set<string>();
  for (const m of body.messages) {
    for (const call of (m.tool_calls ?? []) as Array<{ id: string; function: { name: string } }>) {
      if (call.function.name === name) ids.add(call.id);
    }
  }
  return body.messages.some(
    (m) => m.role === 'tool' && ids.has((m as { tool_call_id?: string }).tool_call_id ?? ''),
  );
}

let calls = 0;

/** Starts the server; `answer` picks the reply of each request. */
export async function chatServer(answer: (body: ChatRequest) => ChatReply): Promise<ChatServer> {
  const requests: ChatRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as ChatRequest;
    requests.push(body);
    const reply = answer(body);
    if (typeof reply === 'function') return reply(res);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completion(body.model, reply)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function completion(model: string, reply: Exclude<ChatReply, (res: ServerResponse) => void>) {
  const message =
    'text' in reply
      ? { role: 'assistant', content: reply.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: reply.toolCalls.map((c) => ({
            id: c.id ?? `call_${++calls}`,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          })),
        };
  return {
    id: `chatcmpl-${++calls}`,
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}
