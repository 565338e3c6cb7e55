/**
 * One approval across fino's own client and server (decision 051): an agent that
 * approved a call to a remote tool does not make its user approve it again when the
 * fino server asks; other elicitations go to `onElicit`, or are declined.
 */
import { fileURLToPath } from 'node:url';
import {
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
  InMemoryTransport,
  inputRequired,
  inputResponse,
  Server,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agent } from '../../../../src/ai/agent/index.ts';
import { ApprovedCalls } from '../../../../src/ai/mcp/client/approved-calls.ts';
import {
  httpTransport,
  type McpHttpServer,
  type McpToolClient,
  mcpClient,
  stdioTransport,
} from '../../../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';
import type { Tool } from '../../../../src/ai/tool/index.ts';
import { approvalServer } from '../fixtures/approval-server.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/approval-server.ts', import.meta.url));

describe('ApprovedCalls', () => {
  it('matches an in-flight call by tool name and arguments, whatever their key order', () => {
    const calls = new ApprovedCalls();
    const end = calls.begin('remove_file', { path: 'a', force: true });
    expect(calls.has('remove_file', { force: true, path: 'a' })).toBe(true);
    expect(calls.has('remove_file', { path: 'b', force: true })).toBe(false);
    expect(calls.has('write_file', { path: 'a', force: true })).toBe(false);
    end();
    expect(calls.has('remove_file', { path: 'a', force: true })).toBe(false);
  });

  it('counts identical calls: one settling leaves the other approved; ending twice is once', () => {
    const calls = new ApprovedCalls();
    const first = calls.begin('t', { x: 1 });
    const second = calls.begin('t', { x: 1 });
    first();
    first();
    expect(calls.has('t', { x: 1 })).toBe(true);
    second();
    expect(calls.has('t', { x: 1 })).toBe(false);
  });
});

type Elicitation = ElicitRequest['params'];

interface Connection {
  /** A client of the approval server, with `onElicit` recording what reached it. */
  client(options?: { onElicit?: boolean; approveDestructive?: boolean }): McpToolClient;
  close(): Promise<void>;
}

let httpServer: McpHttpServer;
const opened: McpToolClient[] = [];
const reachedOnElicit: Elicitation[] = [];
const recordingOnElicit = (params: Elicitation): ElicitResult => {
  reachedOnElicit.push(params);
  return params.message.startsWith('Allow')
    ? { action: 'decline' }
    : { action: 'accept', content: { answer: 'green' } };
};

const CONNECTIONS: [string, () => Promise<Connection>][] = [
  [
    'Streamable HTTP (2026-07-28)',
    async () => {
      httpServer ??= await approvalServer().listen();
      return {
        client: (options = {}) =>
          track(
            mcpClient({
              transport: httpTransport({ url: httpServer.url }),
              approveDestructive: options.approveDestructive,
              onElicit: options.onElicit === false ? undefined : recordingOnElicit,
            }),
          ),
        close: async () => {},
      };
    },
  ],
  [
    'an in-memory SDK transport',
    async () => ({
      client: (options = {}) => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void approvalServer().connect(serverSide);
        return track(
          mcpClient({
            transport: clientSide,
            approveDestructive: options.approveDestructive,
            onElicit: options.onElicit === false ? undefined : recordingOnElicit,
          }),
        );
      },
      close: async () => {},
    }),
  ],
  [
    'stdio (2025 era, elicitation/create requests)',
    async () => ({
      client: (options = {}) =>
        track(
          mcpClient({
            transport: stdioTransport({
              command: process.execPath,
              args: ['--import', 'tsx', fixture],
              cwd: root,
              stderr: 'ignore',
            }),
            approveDestructive: options.approveDestructive,
            onElicit: options.onElicit === false ? undefined : recordingOnElicit,
          }),
        ),
      close: async () => {},
    }),
  ],
];

function track(client: McpToolClient): McpToolClient {
  opened.push(client);
  return client;
}

afterAll(async () => {
  await Promise.all(opened.map((client) => client.close()));
  await httpServer?.close();
});
beforeEach(() => {
  reachedOnElicit.length = 0;
});

const byName = (tools: Tool[]) => Object.fromEntries(tools.map((t) => [t.name, t]));

/** How often the remote tool ran with `arg`, read through the server's own `runs` tool. */
async function timesRun(tools: Record<string, Tool>, name: 'remove_file' | 'guarded', arg: string) {
  const result = await tools.runs.invoke({});
  const text = (result.content as { text: string }[])[0].text;
  return (JSON.parse(text)[name] as string[]).filter((seen) => seen === arg).length;
}

const toolResults = (messages: { content: unknown }[]) =>
  messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((p) => p.type === 'tool_result');

describe.each(CONNECTIONS)(
  'one approval, fino agent → mcpClient → fino server, over %s',
  (_, open) => {
    let conn: Connection;
    let client: McpToolClient;
    let tools: Record<string, Tool>;
    beforeAll(async () => {
      conn = await open();
      client = conn.client();
      tools = byName(await client.tools());
    }, 30_000);
    afterAll(() => conn.close());

    const scripted = (call: { id: string; name: string; args: unknown }) =>
      agent({
        model: scriptedModel([{ toolCalls: [call] }, 'Finished.']),
        tools: Object.values(tools).filter((t) => t.name !== 'runs'),
      });

    it('suspends, and once approved the tool runs exactly once, asking nobody again', async () => {
      const path = `approved-${Math.random()}`;
      const bot = scripted({ id: 'r1', name: 'remove_file', args: { path } });
      const first = await bot.generate('Remove it');
      expect(first.status).toBe('suspended');
      if (first.status !== 'suspended') return;
      expect(first.pending).toMatchObject([{ kind: 'approval', toolName: 'remove_file' }]);
      expect(await timesRun(tools, 'remove_file', path)).toBe(0);

      const second = await bot.resume(JSON.parse(JSON.stringify(first.state)), {
        r1: { approve: true },
      });
      expect(second.status).toBe('done');
      if (second.status !== 'done') return;
      expect(toolResults(second.messages)).toEqual([
        {
          type: 'tool_result',
          toolCallId: 'r1',
          content: [{ type: 'text', text: `removed ${path}` }],
        },
      ]);
      expect(await timesRun(tools, 'remove_file', path)).toBe(1);
      expect(reachedOnElicit).toEqual([]);
    });

    it('rejected, the tool never runs and the server is not called', async () => {
      const path = `rejected-${Math.random()}`;
      const bot = scripted({ id: 'r2', name: 'remove_file', args: { path } });
      const first = await bot.generate('Remove it');
      if (first.status !== 'suspended') throw new Error('expected a suspended run');
      const second = await bot.resume(first.state, { r2: { reject: 'not that one' } });
      expect(second.status).toBe('done');
      if (second.status !== 'done') return;
      expect(toolResults(second.messages)).toMatchObject([{ toolCallId: 'r2', isError: true }]);
      expect(await timesRun(tools, 'remove_file', path)).toBe(0);
      expect(reachedOnElicit).toEqual([]);
    });

    it("a tool that only declares requiresApproval is gated through the server's hint", async () => {
      expect(tools.guarded.requiresApproval).toBe(true);
      expect(tools.guarded.risk).toBeUndefined();
      const note = `hint-${Math.random()}`;
      const bot = scripted({ id: 'g1', name: 'guarded', args: { note } });
      const first = await bot.generate('Note it');
      if (first.status !== 'suspended') throw new Error('expected a suspended run');
      const second = await bot.resume(first.state, { g1: { approve: true } });
      expect(second.status).toBe('done');
      expect(await timesRun(tools, 'guarded', note)).toBe(1);
      expect(reachedOnElicit).toEqual([]);
    });

    it("a suspended remote tool's question is not an approval: it goes to onElicit", async () => {
      const result = await scripted({ id: 'q1', name: 'ask', args: {} }).generate('Pick one');
      expect(result.status).toBe('done');
      if (result.status !== 'done') return;
      expect(toolResults(result.messages)).toEqual([
        {
          type: 'tool_result',
          toolCallId: 'q1',
          content: [{ type: 'text', text: 'colour: green' }],
        },
      ]);
      expect(reachedOnElicit.map((e) => e.message)).toEqual(['Which colour?']);
    });
  },
);

describe('elicitations the client cannot answer from an approval', () => {
  let serverUrl: string;
  beforeAll(async () => {
    httpServer ??= await approvalServer().listen();
    serverUrl = httpServer.url;
  });

  it('without onElicit, a remote question is declined and the tool does not finish', async () => {
    const client = track(mcpClient({ transport: httpTransport({ url: serverUrl }) }));
    const tools = byName(await client.tools());
    const result = await tools.ask.invoke({});
    expect(result).toEqual({
      content: [{ type: 'text', text: 'The user did not answer "Which colour?"; "ask" stopped.' }],
      isError: true,
    });
  });

  it('with approveDestructive: false the agent does not ask, so the server asks onElicit', async () => {
    const client = track(
      mcpClient({
        transport: httpTransport({ url: serverUrl }),
        approveDestructive: false,
        onElicit: recordingOnElicit,
      }),
    );
    const tools = byName(await client.tools());
    expect(tools.remove_file.requiresApproval).toBe(false);
    const path = `unapproved-${Math.random()}`;
    const result = await tools.remove_file.invoke({ path });
    expect(result).toMatchObject({ isError: true });
    expect(reachedOnElicit.map((e) => e.message)).toEqual([
      `Allow "remove_file" (destructive) with {"path":"${path}"}?`,
    ]);
    expect(await timesRun(tools, 'remove_file', path)).toBe(0);
  });

  it('and without onElicit that approval request is declined: nothing runs', async () => {
    const client = track(
      mcpClient({ transport: httpTransport({ url: serverUrl }), approveDestructive: false }),
    );
    const tools = byName(await client.tools());
    const path = `declined-${Math.random()}`;
    const result = await tools.remove_file.invoke({ path });
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'The user rejected the call to "remove_file". It was not executed.' },
      ],
      isError: true,
    });
    expect(await timesRun(tools, 'remove_file', path)).toBe(0);
  });
});

describe('a server asking approval for another call than the one in flight', () => {
  /** A raw SDK server whose `remove_file` asks approval, stating `subject` as the call. */
  async function askingAbout(subject: unknown) {
    const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({
      tools: [
        {
          name: 'remove_file',
          inputSchema: {
            type: 'object',
            properties: { path: { type: 'string' }, force: { type: 'boolean' } },
          },
          annotations: { destructiveHint: true },
        },
      ],
    }));
    server.setRequestHandler('tools/call', (_request, ctx): CallToolResult | never => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'approval');
      if (answer.kind === 'elicit') {
        return { content: [{ type: 'text', text: `answered ${JSON.stringify(answer)}` }] };
      }
      return inputRequired({
        inputRequests: {
          approval: inputRequired.elicit({
            message: 'Allow?',
            requestedSchema: {
              type: 'object',
              properties: { approve: { type: 'boolean' } },
              required: ['approve'],
            },
            _meta: { 'fino/approval': subject },
          }),
        },
      }) as never;
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    return clientSide;
  }

  const cases: [string, unknown, boolean][] = [
    [
      'the same call, keys reordered',
      { tool: 'remove_file', arguments: { force: true, path: 'a' } },
      true,
    ],
    ['other arguments', { tool: 'remove_file', arguments: { path: 'b', force: true } }, false],
    ['fewer arguments', { tool: 'remove_file', arguments: { path: 'a' } }, false],
    ['another tool', { tool: 'write_file', arguments: { path: 'a', force: true } }, false],
    ['no arguments stated', { tool: 'remove_file' }, false],
    ['a malformed subject', 'remove_file', false],
  ];
  for (const [what, subject, approves] of cases) {
    it(`${what}: ${approves ? 'approved from the agent' : 'goes to onElicit'}`, async () => {
      const client = track(
        mcpClient({ transport: await askingAbout(subject), onElicit: recordingOnElicit }),
      );
      const [removeFile] = await client.tools();
      expect(removeFile.requiresApproval).toBe(true);
      const result = await removeFile.invoke({ path: 'a', force: true });
      const text = (result.content as { text: string }[])[0].text;
      if (approves) {
        expect(text).toBe(
          'answered {"kind":"elicit","action":"accept","content":{"approve":true}}',
        );
        expect(reachedOnElicit).toEqual([]);
      } else {
        expect(text).toBe('answered {"kind":"elicit","action":"decline"}');
        expect(reachedOnElicit.map((e) => e.message)).toEqual(['Allow?']);
      }
    });
  }

  it('a call that needs no approval is never approved from an elicitation', async () => {
    const client = track(
      mcpClient({
        transport: await askingAbout({ tool: 'remove_file', arguments: { path: 'a' } }),
        onElicit: recordingOnElicit,
        approveDestructive: false,
      }),
    );
    const [removeFile] = await client.tools();
    const result = await removeFile.invoke({ path: 'a' });
    expect((result.content as { text: string }[])[0].text).toBe(
      'answered {"kind":"elicit","action":"decline"}',
    );
    expect(reachedOnElicit.map((e) => e.message)).toEqual(['Allow?']);
  });
});
