/**
 * `nodeListener` on a real `node:http` server on 127.0.0.1: the UI message stream reaches
 * `fetch` as it is written, and a client that disconnects aborts the run.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { agentUIResponse, nodeListener } from '../../../src/ai/ui/index.ts';
import { endlessModel, readUntilStreaming } from '../../helpers/endless-model.ts';
import { finoAgent } from '../../helpers/ui-turns.ts';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function listen(handler: Parameters<typeof nodeListener>[0], onError?: (e: unknown) => void) {
  server = createServer(nodeListener(handler, { onError }));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/chat`;
}

describe('nodeListener', () => {
  it('streams an agent’s UI message stream to fetch, with the protocol’s headers', async () => {
    const url = await listen(async (request) => {
      expect(await request.json()).toEqual({ q: 'hi' });
      return agentUIResponse(finoAgent([{ text: 'Hello!' }]), 'hi', {
        runId: 'r1',
        signal: request.signal,
      });
    });
    const response = await fetch(url, { method: 'POST', body: JSON.stringify({ q: 'hi' }) });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const body = await response.text();
    expect(body).toContain('"delta":"Hello!"');
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('a client that disconnects mid-stream aborts the run', async () => {
    const model = endlessModel();
    const url = await listen((request) =>
      agentUIResponse(agent({ model }), 'go', { signal: request.signal }),
    );
    const client = new AbortController();
    const response = await fetch(url, { method: 'POST', signal: client.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(await readUntilStreaming(reader)).toContain('"type":"start"');
    client.abort();
    await model.aborted;
  });

  it('a handler that throws answers 500 and reports the error', async () => {
    const errors: unknown[] = [];
    const url = await listen(
      () => {
        throw new Error('handler broke');
      },
      (error) => errors.push(error),
    );
    const response = await fetch(url);
    expect(response.status).toBe(500);
    expect(errors.map(String)).toEqual(['Error: handler broke']);
  });
});
