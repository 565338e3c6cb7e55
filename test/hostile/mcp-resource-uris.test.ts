/**
 * Attack corpus for the URIs a client sends `resources/read` and `resources/subscribe`:
 * a URI crafted to make a backtracking template matcher take quadratic time, URIs past
 * the length cap, and subscriptions whose URIs add up to more bytes than a connection
 * may hold. The event loop stays free for every other client.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mcpServer, resource, resourceTemplate } from '../../src/ai/mcp/index.ts';

const server = mcpServer({
  name: 'files',
  version: '1.0.0',
  tools: [],
  resources: [
    resourceTemplate({
      uriTemplate: 'files://{name}.{ext}',
      name: 'file',
      read: ({ name, ext }) => `${name} (${ext})`,
    }),
    resourceTemplate({ uriTemplate: 'item://{id}', name: 'item', read: ({ id }) => id }),
    resource({ uri: 'ok://small', name: 'small', read: () => 'fine' }),
  ],
});

async function connect(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'client', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** Runs `work` and measures the longest time the event loop went without running a timer. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const timer = setInterval(tick, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
    tick();
  }
  return longest;
}

describe('a URI crafted against files://{name}.{ext}', () => {
  it('answers the 200,009-character URI of the report at once, and serves a second client meanwhile', async () => {
    const attacker = await connect();
    const other = await connect();
    const crafted = `files://${'a.'.repeat(100_000)}/`;
    let attack: Promise<unknown> = Promise.resolve();
    const stall = await longestStall(async () => {
      attack = attacker.readResource({ uri: crafted }).catch((error: unknown) => error);
      const served = await other.readResource({ uri: 'files://report.pdf' });
      expect(served.contents[0]).toMatchObject({ text: 'report (pdf)' });
      await attack;
    });
    expect(String(await attack)).toContain(
      'resources/read: uri: expected at most 8192 characters, received 200009',
    );
    expect(stall).toBeLessThan(200);
    await attacker.close();
    await other.close();
  });

  it('matches in linear time up to the cap: an 8 KiB crafted URI is looked up without a stall', async () => {
    const client = await connect();
    const crafted = `files://${'a.'.repeat(4090)}/`;
    expect(crafted.length).toBeLessThanOrEqual(8192);
    const stall = await longestStall(async () => {
      await expect(client.readResource({ uri: crafted })).rejects.toThrow('Resource not found');
      await expect(client.subscribeResource({ uri: crafted })).rejects.toThrow(
        'Resource not found',
      );
    });
    expect(stall).toBeLessThan(200);
    const dotted = `files://${'a.'.repeat(4000)}txt`;
    const read = await client.readResource({ uri: dotted });
    expect(read.contents[0]).toMatchObject({ text: `${'a.'.repeat(3999)}a (txt)` });
    await client.close();
  });

  it('refuses a subscription to a URI past the cap, naming the cap', async () => {
    const client = await connect();
    await expect(
      client.subscribeResource({ uri: `item://${'x'.repeat(256 * 1024)}` }),
    ).rejects.toThrow(
      'resources/subscribe: uri: expected at most 8192 characters, received 262151',
    );
    await client.close();
  });
});

describe('subscriptions bounded by bytes', () => {
  it('refuses the subscription that would take one connection past 256 KiB of URIs', async () => {
    const client = await connect();
    const uri = (i: number) => `item://${String(i).padStart(8000, '0')}`;
    for (let i = 0; i < 32; i++) await client.subscribeResource({ uri: uri(i) });
    await expect(client.subscribeResource({ uri: uri(32) })).rejects.toThrow(
      'Too many subscriptions: the URIs this connection follows would take 264231 bytes, more than 262144; unsubscribe from some first.',
    );
    // Subscribing again to a followed URI costs nothing; unsubscribing makes room.
    await expect(client.subscribeResource({ uri: uri(0) })).resolves.toEqual({});
    await client.unsubscribeResource({ uri: uri(0) });
    await expect(client.subscribeResource({ uri: uri(32) })).resolves.toEqual({});
    // Another connection has its own room.
    const other = await connect();
    await expect(other.subscribeResource({ uri: uri(0) })).resolves.toEqual({});
    await client.close();
    await other.close();
  });
});
