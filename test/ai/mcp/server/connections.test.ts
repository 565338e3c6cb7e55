/**
 * The official v2 SDK client against fino's server on 2026-07-28 (Streamable HTTP):
 * log messages for the level a request asks for, none for a request that asks for none;
 * a `subscriptions/listen` stream hears the updates of the resources it follows and
 * the list changes it asked for (decisions 210, 211).
 */
import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { closedAfterEach, erasHttp } from '../fixtures/eras-serving.ts';

const http = erasHttp(tempDir('mcp-connections'));
const clients = closedAfterEach<Client>();

/** The official v2 client, pinned to 2026-07-28; `heard` gets each notification's method and params. */
async function sdkClient(heard: { method: string; params: unknown }[]) {
  const client = new Client(
    { name: 'sdk', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  clients.push(client);
  for (const method of [
    'notifications/message',
    'notifications/resources/updated',
    'notifications/prompts/list_changed',
    'notifications/resources/list_changed',
  ] as const) {
    client.setNotificationHandler(method, (n) => {
      heard.push({ method, params: n.params });
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  return client;
}

describe('the official v2 client on 2026-07-28', () => {
  it('gets the log messages at the level a request asks for, and none when it asks for none', async () => {
    const heard: { method: string; params: unknown }[] = [];
    const client = await sdkClient(heard);
    await client.callTool({ name: 'chatty', arguments: {} });
    expect(heard).toEqual([]);
    await client.callTool({
      name: 'chatty',
      arguments: {},
      _meta: { [LOG_LEVEL_META_KEY]: 'info' },
    });
    expect(heard.map((h) => (h.params as { level: string }).level)).toEqual(['info', 'warning']);
  });

  it('hears, on a listen stream, the updates of the resources it follows and the list changes it asked for', async () => {
    const heard: { method: string; params: unknown }[] = [];
    const client = await sdkClient(heard);
    const subscription = await client.listen({
      resourceSubscriptions: ['docs://readme'],
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    expect(subscription.honoredFilter).toEqual({
      resourceSubscriptions: ['docs://readme'],
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    await client.callTool({ name: 'touch', arguments: { uri: 'docs://other' } });
    await client.callTool({ name: 'touch', arguments: { uri: 'docs://readme' } });
    await client.callTool({ name: 'add_prompt', arguments: { name: 'later' } });
    await expect
      .poll(() => heard.map((h) => h.method))
      .toEqual(['notifications/resources/updated', 'notifications/prompts/list_changed']);
    expect((heard[0].params as { uri: string }).uri).toBe('docs://readme');
    await subscription.close();
  });
});
