/**
 * fino's client against fino's server in every revision both speak: negotiated (the
 * default) and pinned with `mcpClient({ protocol })`, over Streamable HTTP and stdio.
 * Every feature works in each: tools, resources, templates and their completions,
 * prompts, logs, followed resources, sampling, forms, approvals by form and a durable
 * task tool (issue 30); 2026-07-28 carries the log
 * level on each request and follows resources on a `subscriptions/listen` stream
 * (decisions 210–212).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  type McpClientOptions,
  McpConnectionError,
  type McpProtocolRevision,
  type McpToolClient,
  mcpClient,
  type ServerLogMessage,
  stdioTransport,
} from '../../../../src/ai/mcp/index.ts';
import type { Tool } from '../../../../src/ai/tool/index.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { closedAfterEach, erasHttp, erasStdio } from '../fixtures/eras-serving.ts';

const scratch = tempDir('mcp-protocol');
const text = (result: { content: unknown }) =>
  (result.content as { text?: string }[]).map((p) => p.text ?? '').join('');
const named = (tools: Tool[], name: string) => tools.find((t) => t.name === name) as Tool;

const http = erasHttp(scratch);
const clients = closedAfterEach<McpToolClient>();

type Transport = 'http' | 'stdio';
const transportOf = (kind: Transport): Pick<McpClientOptions, 'url' | 'transport'> =>
  kind === 'http' ? { url: http.url } : { transport: stdioTransport(erasStdio(scratch)) };

const client = (options: Omit<McpClientOptions, 'transport' | 'url'>, kind: Transport) => {
  const made = mcpClient({ ...transportOf(kind), tasks: { pollIntervalMs: 20 }, ...options });
  clients.push(made);
  return made;
};

/** What each choice speaks: negotiated, HTTP reaches 2026-07-28 and stdio 2025-11-25. */
const cases: { protocol: McpProtocolRevision | undefined; transport: Transport; speaks: string }[] =
  [
    { protocol: undefined, transport: 'http', speaks: '2026-07-28' },
    { protocol: '2026-07-28', transport: 'http', speaks: '2026-07-28' },
    { protocol: '2025-11-25', transport: 'http', speaks: '2025-11-25' },
    { protocol: '2025-06-18', transport: 'http', speaks: '2025-06-18' },
    { protocol: undefined, transport: 'stdio', speaks: '2025-11-25' },
    { protocol: '2026-07-28', transport: 'stdio', speaks: '2026-07-28' },
    { protocol: '2025-06-18', transport: 'stdio', speaks: '2025-06-18' },
  ];

describe.each(cases)('protocol $protocol over $transport', ({ protocol, transport, speaks }) => {
  it(`speaks ${speaks}: every feature works`, async () => {
    const logged: ServerLogMessage[] = [];
    const asked: string[] = [];
    const c = client(
      {
        protocol,
        onLog: (message) => logged.push(message),
        onSample: (request) => ({
          role: 'assistant',
          model: 'stub',
          content: { type: 'text', text: `(${request.messages.length} message summarized)` },
        }),
        onElicit: (request) => {
          asked.push(request.message);
          const content: Record<string, string | boolean> = request.message.startsWith('Allow')
            ? { approve: true }
            : request.message.startsWith('Notes')
              ? { notes: 'faster' }
              : { name: 'Ana' };
          return { action: 'accept', content };
        },
        approveDestructive: false,
      },
      transport,
    );
    const tools = await c.tools();
    expect(c.protocolVersion()).toBe(speaks);

    // Resources, templates, completions and prompts.
    const listed = await c.resources();
    expect(listed.resources.map((r) => r.uri)).toEqual(['docs://readme']);
    expect(listed.templates.map((t) => t.uriTemplate)).toEqual(['notes://{name}']);
    expect((await c.readResource('notes://ideas')).contents[0]).toMatchObject({
      text: 'The note called ideas.',
    });
    const ref = { type: 'ref/resource', uri: 'notes://{name}' } as const;
    expect(await c.complete(ref, { name: 'name', value: 'g' })).toEqual(['groceries', 'gardening']);
    expect(JSON.stringify(await c.promptMessages('review', { language: 'go' }))).toContain(
      'Review this go code.',
    );

    // Sampling, a form and an approval by form, asked of this client by the server.
    expect(text(await named(tools, 'summarize').invoke({ text: 'a long text' }))).toBe(
      '(1 message summarized)',
    );
    expect(text(await named(tools, 'sign_up').invoke({}))).toBe('Signed up Ana.');
    expect(text(await named(tools, 'publish').invoke({ site: 'blog' }))).toBe('Published blog.');
    expect(asked).toEqual(['Your name?', 'Allow "publish" with {"site":"blog"}?']);

    // Logs: every level until the client sets one, then that level and above.
    await named(tools, 'chatty').invoke({});
    await expect.poll(() => logged.map((m) => m.level)).toEqual(['debug', 'info', 'warning']);
    await c.setLogLevel('warning');
    await named(tools, 'chatty').invoke({});
    await expect
      .poll(() => logged.map((m) => m.level))
      .toEqual(['debug', 'info', 'warning', 'warning']);

    // Followed resources: updates of the followed URI only, none after unsubscribing.
    const heard: string[] = [];
    const stop = await c.subscribe('docs://readme', (uri) => heard.push(uri));
    await named(tools, 'touch').invoke({ uri: 'docs://other' });
    await named(tools, 'touch').invoke({ uri: 'docs://readme' });
    await expect.poll(() => heard).toEqual(['docs://readme']);
    await stop();
    await named(tools, 'touch').invoke({ uri: 'docs://readme' });
    await c.readResource('docs://readme'); // a round trip: a notification sent would have arrived
    expect(heard).toEqual(['docs://readme']);

    // The durable task tool answers.
    expect(text(await named(tools, 'report').invoke({ quarter: 'Q3' }))).toBe(
      'Report for Q3 is ready.',
    );

    // On 2026-07-28, a durable task asks approval, then a form: tasks/get shows each
    // question, onElicit answers it, tasks/update sends the answer (decision 243).
    if (speaks !== '2026-07-28') return;
    asked.length = 0;
    const statuses: string[] = [];
    const released = await named(tools, 'release').invoke(
      { version: '2.0' },
      { progress: (update) => statuses.push(update.message ?? '') },
    );
    expect(text(released)).toBe('Released 2.0: faster.');
    expect(asked).toEqual(['Allow "release" with {"version":"2.0"}?', 'Notes for 2.0?']);
    // It ran as a task: its polls carried the task's status messages.
    expect(statuses.some((message) => message.startsWith('Waiting for approval'))).toBe(true);
  });
});

describe('the protocol option', () => {
  it.each([
    ['2024-11-05', 'string "2024-11-05"'],
    ['2026-07-28 ', 'string "2026-07-28 "'],
    [20260728, 'number 20260728'],
    [null, 'null'],
  ])('refuses %j at construction, naming the revisions it takes', (bad, received) => {
    expect(() => mcpClient({ url: 'http://127.0.0.1:1/mcp', protocol: bad as never })).toThrow(
      `mcpClient: protocol: expected 'auto' or one of '2026-07-28', '2025-11-25', '2025-06-18', received ${received}`,
    );
  });

  it("takes 'auto', the default", async () => {
    const c = client({ protocol: 'auto' }, 'http');
    await c.connect();
    expect(c.protocolVersion()).toBe('2026-07-28');
  });

  it('refuses a level that is not one of the eight, in both eras', async () => {
    for (const protocol of ['2026-07-28', '2025-11-25'] as const) {
      const c = client({ protocol }, 'http');
      await expect(c.setLogLevel('verbose' as never)).rejects.toThrow(
        'mcpClient.setLogLevel: level: expected one of debug, info, notice, warning, error, critical, alert, emergency, received string "verbose"',
      );
    }
  });

  it('asks for no logs on 2026-07-28 when the client has no onLog', async () => {
    const c = client({}, 'http');
    await c.connect();
    // Nothing to assert on the wire here beyond the call working: the server sends no
    // log for a request that asks for none (the conformance scenario checks the wire).
    expect(text(await named(await c.tools(), 'chatty').invoke({}))).toBe('done');
  });
});

/**
 * A server of the 2025 handshake only, which answers 2025-11-25 whatever is offered and
 * knows no `server/discover`.
 */
async function only20251125(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const message = body ? JSON.parse(body) : {};
      if (message.id === undefined) return void res.writeHead(202).end();
      const answer =
        message.method === 'initialize'
          ? {
              result: {
                protocolVersion: '2025-11-25',
                capabilities: { tools: {} },
                serverInfo: { name: 'old', version: '1' },
              },
            }
          : { error: { code: -32601, message: 'Method not found' } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a pinned revision the server does not speak', () => {
  it.each([
    ['2026-07-28', /did not offer pinned protocol version 2026-07-28/],
    ['2025-06-18', /protocol version is not supported: 2025-11-25/],
  ] as const)('%s fails connect() with HANDSHAKE_FAILED, saying why', async (protocol, why) => {
    const old = await only20251125();
    const c = mcpClient({ url: old.url, protocol });
    clients.push(c);
    try {
      const error = await c.connect().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpConnectionError);
      expect((error as McpConnectionError).code).toBe('HANDSHAKE_FAILED');
      expect((error as Error).message).toMatch(why);
    } finally {
      await old.close();
    }
  });
});
