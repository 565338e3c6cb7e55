/**
 * `agentUIResponse`: an agent run as a UI message stream `Response` that `ai`'s own client
 * reads; the request's abort, or the body's cancel, aborts the run.
 */
import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { agentUIResponse } from '../../../src/ai/ui/index.ts';
import { endlessModel, readUntilStreaming } from '../../helpers/endless-model.ts';
import { finoAgent, parsedEvents, readMessage } from '../../helpers/ui-turns.ts';

/** The body as ai's client reads it: every event valid per its schema, then one message. */
async function readResponse(response: Response) {
  const events = await parsedEvents(response);
  expect(events.filter((event) => !event.success)).toEqual([]);
  const { message } = await readMessage(
    new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const event of events) controller.enqueue(event.value as UIMessageChunk);
        controller.close();
      },
    }),
  );
  return message as { id: string; parts: { type: string; text?: string }[]; metadata?: unknown };
}

describe('agentUIResponse', () => {
  it('streams a run that ai’s client reads into one message with the run’s id', async () => {
    const bot = finoAgent([
      { calls: [{ id: 'c1', name: 'weather', input: { city: 'Oslo' } }] },
      { text: 'It is 4 °C.' },
    ]);
    const response = agentUIResponse(bot, 'Weather?', { runId: 'run_7', threadId: 't1' });
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const message = await readResponse(response);
    expect(message.id).toBe('run_7');
    expect(message.parts.map((p) => p.type)).toEqual([
      'step-start',
      'tool-weather',
      'step-start',
      'text',
    ]);
    expect(message.metadata).toMatchObject({
      fino: { runId: 'run_7', threadId: 't1', status: 'done' },
    });
  });

  it('makes a run id when none is given, and messageId overrides the message’s id', async () => {
    const made = await readResponse(agentUIResponse(finoAgent([{ text: 'a' }]), 'hi'));
    expect(made.id).toMatch(/^run_[0-9a-f-]{36}$/);
    expect(made.metadata).toMatchObject({ fino: { runId: made.id } });
    const named = await readResponse(
      agentUIResponse(finoAgent([{ text: 'a' }]), 'hi', { messageId: 'm1' }),
    );
    expect(named.id).toBe('m1');
  });

  it('the request’s abort aborts the run and ends the body', async () => {
    const model = endlessModel();
    const request = new AbortController();
    const response = agentUIResponse(agent({ model }), 'go', { signal: request.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await readUntilStreaming(reader);
    request.abort();
    await model.aborted;
    for (;;) if ((await reader.read()).done) break;
  });

  it('cancelling the body (the client left) aborts the run', async () => {
    const model = endlessModel();
    const response = agentUIResponse(agent({ model }), 'go');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await readUntilStreaming(reader);
    await reader.cancel();
    await model.aborted;
    const sent = model.sent;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(model.sent).toBe(sent);
  });
});
