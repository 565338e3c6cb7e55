/**
 * A `subscriptions/listen` stream following a huge number of resources is refused, over
 * Streamable HTTP and over stdio, with the caps of `resources/subscribe` (decision 211);
 * a stream within them opens. Driven by the official v2 client on 2026-07-28.
 */
import {
  Client,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import {
  MAX_SUBSCRIBED_URI_BYTES,
  MAX_SUBSCRIPTIONS,
} from '../../../../src/ai/mcp/server/catalog.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { closedAfterEach, erasHttp, erasStdio } from '../fixtures/eras-serving.ts';

const scratch = tempDir('mcp-listen-bounds');
const http = erasHttp(scratch);
const clients = closedAfterEach<Client>();

async function connect(transport: Transport): Promise<Client> {
  const client = new Client(
    { name: 'sdk', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  clients.push(client);
  await client.connect(transport);
  return client;
}

const uris = (count: number, length = 20) =>
  Array.from({ length: count }, (_, i) => `docs://${String(i).padStart(length - 7, '0')}`);

describe('subscriptions/listen over Streamable HTTP', () => {
  it(`refuses more than ${MAX_SUBSCRIPTIONS} URIs, naming the cap; opens ${MAX_SUBSCRIPTIONS}`, async () => {
    const client = await connect(new StreamableHTTPClientTransport(new URL(http.url)));
    await expect(
      client.listen({ resourceSubscriptions: uris(MAX_SUBSCRIPTIONS + 1) }),
    ).rejects.toThrow(
      `subscriptions/listen: resourceSubscriptions: expected at most ${MAX_SUBSCRIPTIONS} URIs, received ${MAX_SUBSCRIPTIONS + 1}; follow fewer resources per stream`,
    );
    const open = await client.listen({ resourceSubscriptions: uris(MAX_SUBSCRIPTIONS) });
    expect(open.honoredFilter.resourceSubscriptions).toHaveLength(MAX_SUBSCRIPTIONS);
    await open.close();
  });

  it(`refuses URIs taking more than ${MAX_SUBSCRIBED_URI_BYTES} bytes, and a URI too long to be served`, async () => {
    const client = await connect(new StreamableHTTPClientTransport(new URL(http.url)));
    await expect(client.listen({ resourceSubscriptions: uris(300, 1000) })).rejects.toThrow(
      `expected at most ${MAX_SUBSCRIBED_URI_BYTES} bytes of URIs, received 300000`,
    );
    await expect(
      client.listen({ resourceSubscriptions: [`docs://${'x'.repeat(9000)}`] }),
    ).rejects.toThrow('expected URIs of at most 8192 characters, received one of 9007');
  });
});

describe('subscriptions/listen over stdio', () => {
  it(`refuses more than ${MAX_SUBSCRIPTIONS} URIs, and the connection goes on`, async () => {
    const client = await connect(new StdioClientTransport(erasStdio(scratch)));
    await expect(
      client.listen({ resourceSubscriptions: uris(MAX_SUBSCRIPTIONS + 1) }),
    ).rejects.toThrow(`expected at most ${MAX_SUBSCRIPTIONS} URIs`);
    const open = await client.listen({ resourceSubscriptions: ['docs://readme'] });
    expect(open.honoredFilter).toEqual({ resourceSubscriptions: ['docs://readme'] });
    await open.close();
  });
});
