/**
 * Attack corpus for resources, templates, subscriptions, prompts and completions of
 * `mcpServer()`: each gets a clear JSON-RPC error (or a clear construction error), no
 * crash, and memory bounded by the server's limits; the server keeps serving.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mcpServer, prompt, resource, resourceTemplate } from '../../src/ai/mcp/index.ts';
import { v } from '../../src/validate/index.ts';

const MIB = 1024 * 1024;
const oneMiB = new Uint8Array(MIB);
const oneMiBText = 'x'.repeat(MIB);

const resources = [
  // 1 GiB in all, held as 1,024 references to one 1 MiB buffer: the cap must stop it.
  resource({ uri: 'big://bytes', name: 'bytes', read: () => Array(1024).fill(oneMiB) }),
  resource({ uri: 'big://text', name: 'text', read: () => Array(1024).fill(oneMiBText) }),
  resource({ uri: 'bad://blob', name: 'blob', read: () => ({ blob: 'not base64!' }) }),
  resource({
    uri: 'bad://mime',
    name: 'mime',
    read: () => ({ text: 'x', mimeType: 'text plain' }),
  }),
  resource({ uri: 'bad://value', name: 'value', read: () => 42 as never }),
  resource({ uri: 'ok://small', name: 'small', read: () => 'fine' }),
  resourceTemplate({ uriTemplate: 'item://{id}', name: 'item', read: ({ id }) => `item ${id}` }),
];
const prompts = [
  prompt({
    name: 'greet',
    arguments: v.object({ name: v.string() }),
    get: ({ name }) => `Hello ${name}`,
  }),
];

const ANY = {
  '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
} as const;

async function connect() {
  const server = mcpServer({ name: 'hostile', version: '1.0.0', tools: [], resources, prompts });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'attacker', version: '1.0.0' });
  await client.connect(clientSide);
  const raw = (method: string, params: unknown) =>
    client.request({ method, params } as never, ANY as never) as Promise<unknown>;
  return { client, raw };
}

describe('resources/read of hostile resources', () => {
  it('refuses a 1 GiB read at the size cap, with a clear error, and keeps serving', async () => {
    const { client } = await connect();
    for (const uri of ['big://bytes', 'big://text']) {
      await expect(client.readResource({ uri })).rejects.toThrow(
        `Reading resource "${uri}" failed: it is larger than this server sends (16777216 bytes)`,
      );
    }
    expect(await client.readResource({ uri: 'ok://small' })).toEqual({
      contents: [{ uri: 'ok://small', text: 'fine' }],
    });
    await client.close();
  });

  it('names what is wrong with a bad blob, MIME type or value', async () => {
    const { client } = await connect();
    await expect(client.readResource({ uri: 'bad://blob' })).rejects.toThrow(
      'blob: expected base64 text',
    );
    await expect(client.readResource({ uri: 'bad://mime' })).rejects.toThrow(
      'mimeType: expected a MIME type such as "text/plain", received string "text plain"',
    );
    await expect(client.readResource({ uri: 'bad://value' })).rejects.toThrow(
      'read returned number 42 at 0; expected a string, bytes, { text } or { blob }',
    );
    await client.close();
  });

  it('answers unknown, huge and malformed URIs with JSON-RPC errors', async () => {
    const { client, raw } = await connect();
    await expect(client.readResource({ uri: `item://${'a'.repeat(2 * MIB)}` })).rejects.toThrow();
    await expect(client.readResource({ uri: 'nowhere://x' })).rejects.toThrow(
      'Resource not found: nowhere://x',
    );
    await expect(raw('resources/read', { uri: 42 })).rejects.toThrow(/-32602|Invalid/i);
    await expect(raw('resources/read', {})).rejects.toThrow(/-32602|Invalid/i);
    await expect(raw('resources/subscribe', { uri: ['x'] })).rejects.toThrow(/-32602|Invalid/i);
    expect((await client.readResource({ uri: 'item://7' })).contents[0]).toMatchObject({
      text: 'item 7',
    });
    await client.close();
  });
});

describe('server limits', () => {
  it('takes a smaller read cap, and refuses a cap that is not a whole number of bytes', async () => {
    const server = mcpServer({
      name: 's',
      version: '1',
      tools: [],
      resources,
      maxResourceBytes: 3,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(clientSide);
    await expect(client.readResource({ uri: 'ok://small' })).rejects.toThrow(
      'it is larger than this server sends (3 bytes)',
    );
    await client.close();
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        mcpServer({ name: 's', version: '1', tools: [], maxResourceBytes: bad }),
      ).toThrow('mcpServer: maxResourceBytes: expected a whole number of bytes > 0');
    }
  });
});

describe('resource templates', () => {
  it('refuses a template with 10,000 variables at construction', () => {
    const uriTemplate = `x://${Array.from({ length: 10_000 }, (_, i) => `{v${i}}`).join('/')}`;
    expect(() => resourceTemplate({ uriTemplate, name: 'many', read: () => '' })).toThrow(
      'resourceTemplate: uriTemplate: expected at most 32 variables, received 10000',
    );
  });

  it('refuses an unparsable template and completers for unknown variables', () => {
    expect(() => resourceTemplate({ uriTemplate: 'x://{', name: 'x', read: () => '' })).toThrow(
      /resourceTemplate: uriTemplate: /,
    );
    expect(() =>
      resourceTemplate({
        uriTemplate: 'x://{a}',
        name: 'x',
        complete: { b: () => [] },
        read: () => '',
      }),
    ).toThrow('resourceTemplate: complete.b: no such argument; expected one of a');
  });
});

describe('subscriptions', () => {
  it('caps one connection at 1,000 subscriptions out of 10,000 attempts', async () => {
    const { client } = await connect();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10_000 }, (_, i) => client.subscribeResource({ uri: `item://${i}` })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1000);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toContain(
      'Too many subscriptions: this connection already follows 1000 resources',
    );
    // Unsubscribing makes room again.
    await client.unsubscribeResource({ uri: 'item://0' });
    await expect(client.subscribeResource({ uri: 'item://10001' })).resolves.toEqual({});
    await expect(client.subscribeResource({ uri: 'nowhere://x' })).rejects.toThrow(
      'Resource not found',
    );
    await client.close();
  }, 60_000);
});

describe('prompts/get with hostile arguments', () => {
  it('answers bad arguments with InvalidParams errors and pollutes nothing', async () => {
    const { client, raw } = await connect();
    await expect(
      raw('prompts/get', {
        name: 'greet',
        arguments: JSON.parse('{"name":"x","__proto__":{"polluted":"yes"}}'),
      }),
    ).resolves.toMatchObject({ messages: [{ content: { text: 'Hello x' } }] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expect(
      client.getPrompt({ name: 'greet', arguments: { name: 'x'.repeat(200_000) } }),
    ).rejects.toThrow('argument "name" is 200000 characters long; at most 100000 are accepted');
    await expect(raw('prompts/get', { name: 'greet', arguments: { name: 5 } })).rejects.toThrow(
      /-32602|Invalid/i,
    );
    await expect(raw('prompts/get', { name: 'greet', arguments: {} })).rejects.toThrow(/name/);
    await expect(raw('prompts/get', { arguments: {} })).rejects.toThrow(/-32602|Invalid/i);
    await expect(
      raw('completion/complete', {
        ref: { type: 'ref/other' },
        argument: { name: 'a', value: '' },
      }),
    ).rejects.toThrow(/-32602|Invalid/i);
    expect(
      await client.complete({
        ref: { type: 'ref/prompt', name: 'nope' },
        argument: { name: 'a', value: '' },
      }),
    ).toEqual({
      completion: { values: [] },
    });
    await client.close();
  });
});

describe('subscriptions over stateless HTTP', () => {
  it('keeps no subscription on the server after the stream that held it closed', async () => {
    const { mcpClient } = await import('../../src/ai/mcp/index.ts');
    const http = await mcpServer({ name: 'h', version: '1', tools: [], resources }).listen({
      port: 0,
    });
    const client = mcpClient({ url: http.url });
    // On 2026-07-28 a followed resource is a subscriptions/listen stream the client holds
    // (decision 211): closing the stream ends it; a stateless request keeps nothing.
    const stop = await client.subscribe('ok://small', () => undefined);
    expect(client.protocolVersion()).toBe('2026-07-28');
    await stop();
    expect(await client.readResource('ok://small')).toMatchObject({ contents: [{ text: 'fine' }] });
    await client.close();
    await http.close();
  });
});
