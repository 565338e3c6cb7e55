/**
 * A remote server that tries to set the client's costs: a flood of `list_changed`
 * notifications, sampling requests asking for 2^31 − 1 tokens, sampling requests no
 * client request asked for (issue 32, item 15).
 */
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_SAMPLING_MAX_TOKENS,
  mcpClient,
  mcpServer,
  sampleWith,
} from '../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

/** A low-level SDK server, its tools/list counted and held while `gate` is set. */
async function countingServer() {
  const server = new Server(
    { name: 'flood', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const state = { lists: 0, gate: undefined as Promise<void> | undefined };
  server.setRequestHandler('tools/list', async () => {
    state.lists++;
    await state.gate;
    return { tools: [{ name: 't', inputSchema: { type: 'object' as const } }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { state, clientSide, serverSide };
}

describe('a server that sets the client’s costs', () => {
  it('10,000 tools/list_changed notifications cause one listing in flight and one more', async () => {
    const { state, clientSide, serverSide } = await countingServer();
    const client = mcpClient({ transport: clientSide });
    try {
      await client.tools();
      expect(state.lists).toBe(1);
      let open = () => {};
      state.gate = new Promise((resolve) => {
        open = resolve;
      });
      // Sent raw: the SDK's server would fold them into one.
      const changed = { jsonrpc: '2.0' as const, method: 'notifications/tools/list_changed' };
      for (let i = 0; i < 10_000; i++) await serverSide.send(changed);
      await vi.waitFor(() => expect(state.lists).toBe(2)); // the first refresh, held
      state.gate = undefined;
      open();
      await vi.waitFor(() => expect(state.lists).toBe(3)); // the one pending after it
      await client.tools(); // a round trip after which no other refresh is on its way
      expect(state.lists).toBe(4);
    } finally {
      await client.close();
    }
  });

  const greedy = tool({
    name: 'greedy',
    parameters: v.object({}),
    execute: async (_args, ctx) =>
      (
        await ctx.sample({
          messages: [{ role: 'user', content: 'Write.' }],
          maxTokens: 2 ** 31 - 1,
        })
      ).text,
  });

  for (const [label, sampling, expected] of [
    ['the default cap', undefined, DEFAULT_SAMPLING_MAX_TOKENS],
    ['the client’s cap', { maxTokens: 100 }, 100],
  ] as const) {
    it(`sampling maxTokens 2^31 − 1 reaches the model as ${label}`, async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await mcpServer({ name: 'greedy', version: '1.0.0', tools: [greedy] }).connect(serverSide);
      const model = scriptedModel(['Done.']);
      const client = mcpClient({ transport: clientSide, onSample: sampleWith(model), sampling });
      try {
        const [remote] = await client.tools();
        expect((await remote.invoke({})).content).toEqual([{ type: 'text', text: 'Done.' }]);
        expect(model.requests[0]?.maxTokens).toBe(expected);
      } finally {
        await client.close();
      }
    });
  }

  it('refuses a sampling request sent while no client request is open, unless allowed', async () => {
    for (const allowUnsolicited of [false, true]) {
      const server = new Server({ name: 'pushy', version: '1.0.0' }, { capabilities: {} });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const model = scriptedModel(['Sure.']);
      const client = mcpClient({
        transport: clientSide,
        onSample: sampleWith(model),
        sampling: { allowUnsolicited },
      });
      try {
        await client.connect();
        const asking = server.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Spend.' } }],
          maxTokens: 10,
        });
        if (allowUnsolicited) {
          await expect(asking).resolves.toMatchObject({ content: { type: 'text', text: 'Sure.' } });
        } else {
          await expect(asking).rejects.toMatchObject({
            code: -32600,
            message: expect.stringContaining(
              'refused a sampling request that came while no request of this client was open',
            ),
          });
          expect(model.requests).toHaveLength(0);
        }
      } finally {
        await client.close();
      }
    }
  });

  it('checks the sampling option at construction', () => {
    const transport = InMemoryTransport.createLinkedPair()[0];
    expect(() => mcpClient({ transport, sampling: { maxTokens: 0 } })).toThrow(
      'mcpClient: sampling.maxTokens: expected an integer > 0, received number 0',
    );
    expect(() => mcpClient({ transport, sampling: { allowUnsolicited: 'yes' as never } })).toThrow(
      'mcpClient: sampling.allowUnsolicited: expected a boolean, received string "yes"',
    );
  });
});
