/**
 * `mcpClient()` calling remote tools as MCP tasks (decision 098): against the official
 * v1 SDK's task server over Streamable HTTP and stdio, and a scripted raw server for
 * input requests across connections.
 */
import { fileURLToPath } from 'node:url';
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent } from '../../../../../src/ai/agent/index.ts';
import {
  httpTransport,
  type McpClientWarning,
  type McpToolClient,
  mcpClient,
  type RemoteTaskInput,
  stdioTransport,
} from '../../../../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../../../../src/ai/model/index.ts';
import type { Progress } from '../../../../../src/task/index.ts';
import { type RawConnection, rawTaskServer } from '../../fixtures/raw-task-server.ts';
import { seen, v1TaskHttpServer } from '../../fixtures/v1-task-server.ts';

const root = fileURLToPath(new URL('../../../../..', import.meta.url));
const fixture = fileURLToPath(new URL('../../fixtures/v1-task-server.ts', import.meta.url));

let server: Awaited<ReturnType<typeof v1TaskHttpServer>>;
const opened: McpToolClient[] = [];
beforeAll(async () => {
  server = await v1TaskHttpServer();
});
afterAll(async () => {
  for (const client of opened) await client.close();
  await server.close();
});

function open(client: McpToolClient): McpToolClient {
  opened.push(client);
  return client;
}

async function toolNamed(client: McpToolClient, name: string) {
  const found = (await client.tools()).find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

const text = (result: { content: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((p) => p.text ?? '').join('');

describe('mcpClient() with the v1 SDK task server', () => {
  const transports = [
    ['Streamable HTTP', () => httpTransport({ url: server.url })],
    [
      'stdio',
      () =>
        stdioTransport({
          command: process.execPath,
          args: ['--import', 'tsx', fixture],
          cwd: root,
          stderr: 'ignore',
        }),
    ],
  ] as const;

  for (const [name, transport] of transports) {
    it(`${name}: runs a taskSupport: required tool as a task and answers its result`, async () => {
      const client = open(mcpClient({ transport: transport() }));
      const sum = await toolNamed(client, 'slow_sum');
      const updates: Progress[] = [];
      const result = await sum.invoke({ a: 2, b: 3 }, { progress: (p) => updates.push(p) });
      expect(result).toEqual({ content: [{ type: 'text', text: '5' }] });
      // The task's progress notification, then its status message, reached the call.
      expect(updates).toEqual([
        { progress: 1, total: 2, message: 'half way' },
        { progress: 1, total: 2, message: 'adding the numbers' },
      ]);
    });
  }

  it('calls a tool without taskSupport directly', async () => {
    const client = open(mcpClient({ transport: httpTransport({ url: server.url }) }));
    const echo = await toolNamed(client, 'echo');
    expect(await echo.invoke({ text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
  });

  it('answers an isError result naming the task and its status message when it fails', async () => {
    const client = open(mcpClient({ transport: httpTransport({ url: server.url }) }));
    const explode = await toolNamed(client, 'explode');
    const result = await explode.invoke({});
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^The remote task "[0-9a-f]+" of "explode" ended failed: the disk is on fire$/,
    );
  });

  it('sends tasks/cancel when the call is aborted, and rejects with the abort reason', async () => {
    const client = open(mcpClient({ transport: httpTransport({ url: server.url }) }));
    const forever = await toolNamed(client, 'forever');
    const controller = new AbortController();
    const creates = seen.creates.length;
    const cancelled = seen.cancelled.length;
    const call = forever.invoke({}, { signal: controller.signal });
    while (seen.creates.length === creates) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('user stopped'));
    await expect(call).rejects.toThrow('user stopped');
    while (seen.cancelled.length === cancelled) await new Promise((r) => setTimeout(r, 5));
    expect(seen.cancelled).toHaveLength(cancelled + 1);
  });

  it('with tasks: false, calls optional task tools directly and leaves out required ones', async () => {
    const warnings: McpClientWarning[] = [];
    const client = open(
      mcpClient({
        transport: httpTransport({ url: server.url }),
        tasks: false,
        onWarning: (w) => warnings.push(w),
      }),
    );
    const names = (await client.tools()).map((t) => t.name);
    expect(names).toEqual(['confirm_delete', 'echo']);
    expect(warnings.map((w) => w.message)).toContain(
      'mcpClient: skipped remote tool "slow_sum": it must run as a task, and this client calls no tasks (tasks: false)',
    );
  });

  it('suspends an agent run when the task needs input, and resuming answers the same task', async () => {
    const client = open(mcpClient({ transport: httpTransport({ url: server.url }) }));
    const bot = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'c1', name: 'confirm_delete', args: { path: 'a.txt' } }] },
        'Done.',
      ]),
      tools: await client.tools(),
    });
    const creates = seen.creates.filter((c) => c === 'confirm_delete').length;
    const first = await bot.generate('Delete a.txt');
    expect(first.status).toBe('suspended');
    if (first.status !== 'suspended') return;
    const [pending] = first.pending;
    expect(pending).toMatchObject({
      kind: 'suspend',
      toolName: 'confirm_delete',
      reason: 'Delete a.txt?',
    });
    const payload = pending.payload as RemoteTaskInput;
    expect(payload.tool).toBe('confirm_delete');
    expect(payload.request).toMatchObject({ message: 'Delete a.txt?', mode: 'form' });
    expect(payload.request).not.toHaveProperty('_meta');

    const done = await bot.resume(JSON.parse(JSON.stringify(first.state)), {
      c1: {
        resume: {
          taskId: payload.taskId,
          answer: { action: 'accept', content: { confirm: true } },
        },
      },
    });
    expect(done.status).toBe('done');
    if (done.status !== 'done') return;
    const results = done.messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((p) => p.type === 'tool_result');
    expect(results).toEqual([
      { type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'deleted a.txt' }] },
    ]);
    // One tools/call: the resumed call followed the same task.
    expect(seen.creates.filter((c) => c === 'confirm_delete').length).toBe(creates + 1);
  });
});

describe('mcpClient() resuming a remote task through another connection', () => {
  const confirm: McpTool = {
    name: 'confirm',
    inputSchema: { type: 'object', properties: { what: { type: 'string' } } },
    execution: { taskSupport: 'required' },
  };

  /** A durable task server: the task waits for input until an elicitation is answered. */
  function durableServer() {
    const task = { taskId: 't-1', status: 'working', pollInterval: 10 } as Record<string, unknown>;
    let answer: unknown;
    const server = rawTaskServer({
      tools: [confirm],
      handle(method, _params, connection: RawConnection) {
        const now = {
          createdAt: '2026-12-03T00:00:00Z',
          lastUpdatedAt: '2026-12-03T00:00:00Z',
          ttl: null,
        };
        if (method === 'tools/call') {
          task.status = 'input_required';
          return { task: { ...task, ...now } };
        }
        if (method === 'tasks/get') return { ...task, ...now };
        if (method === 'tasks/result') {
          if (task.status === 'completed') {
            return { content: [{ type: 'text', text: `answered ${JSON.stringify(answer)}` }] };
          }
          // Delivers the question (again, on every tasks/result while unanswered).
          return connection
            .request('elicitation/create', {
              mode: 'form',
              message: 'Proceed?',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
              _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't-1' } },
            })
            .then((result) => {
              answer = result;
              task.status = 'completed';
              return { content: [{ type: 'text', text: `answered ${JSON.stringify(answer)}` }] };
            });
        }
        return undefined;
      },
    });
    return server;
  }

  it('a second client (another process) answers the held question and gets the result', async () => {
    const server = durableServer();
    const first = open(mcpClient({ transport: server.connect() }));
    const bot = agent({
      model: scriptedModel([{ toolCalls: [{ id: 'k1', name: 'confirm', args: { what: 'x' } }] }]),
      tools: await first.tools(),
    });
    const suspended = await bot.generate('go');
    expect(suspended.status).toBe('suspended');
    if (suspended.status !== 'suspended') return;
    const payload = suspended.pending[0].payload as RemoteTaskInput;
    expect(payload).toMatchObject({
      taskId: 't-1',
      tool: 'confirm',
      request: { message: 'Proceed?' },
    });
    const state = JSON.stringify(suspended.state);
    await first.close();

    const second = open(mcpClient({ transport: server.connect() }));
    const again = agent({
      model: scriptedModel(['Confirmed.']),
      tools: await second.tools(),
    });
    const done = await again.resume(JSON.parse(state), {
      k1: {
        resume: { taskId: payload.taskId, answer: { action: 'accept', content: { ok: true } } },
      },
    });
    expect(done.status).toBe('done');
    if (done.status !== 'done') return;
    expect(JSON.stringify(done.messages)).toContain(
      'answered {\\"action\\":\\"accept\\",\\"content\\":{\\"ok\\":true}}',
    );
    expect(server.received.filter((r) => r.method === 'tools/call')).toHaveLength(1);
  });

  it('refuses a resume value without the task id, naming what it expected', async () => {
    const server = durableServer();
    const client = open(mcpClient({ transport: server.connect() }));
    const tool = await toolNamed(client, 'confirm');
    const result = await tool.invoke({ what: 'x' }, { resumeValue: { ok: true } });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /resume value for remote task tool "confirm": expected \{ taskId: string, answer: \{ action: 'accept' \| 'decline' \| 'cancel', content\? \} \}.*received object/,
    );
    expect(server.received.map((r) => r.method)).not.toContain('tools/call');
  });

  it('leaves out a required task tool when the server declares no task calls', async () => {
    const warnings: McpClientWarning[] = [];
    const server = rawTaskServer({
      tools: [confirm],
      capabilities: { tools: {} },
      handle: () => undefined,
    });
    const client = open(
      mcpClient({ transport: server.connect(), onWarning: (w) => warnings.push(w) }),
    );
    expect(await client.tools()).toEqual([]);
    expect(warnings[0]?.message).toBe(
      'mcpClient: skipped remote tool "confirm": it must run as a task, and the server does not declare task calls for tools (capabilities.tasks.requests.tools.call)',
    );
  });

  it('sends the ttl option as params.task.ttl', async () => {
    const server = rawTaskServer({
      tools: [{ ...confirm, execution: { taskSupport: 'optional' } }],
      handle: (method) =>
        method === 'tools/call' ? { content: [{ type: 'text', text: 'at once' }] } : undefined,
    });
    const client = open(mcpClient({ transport: server.connect(), tasks: { ttlMs: 90_000 } }));
    const tool = await toolNamed(client, 'confirm');
    // A server may answer a task call with the result at once; it is the answer.
    expect(await tool.invoke({ what: 'x' })).toEqual({
      content: [{ type: 'text', text: 'at once' }],
    });
    expect(server.received.find((r) => r.method === 'tools/call')?.params.task).toEqual({
      ttl: 90_000,
    });
  });
});

describe('mcpClient({ tasks }) options', () => {
  const transport = () => rawTaskServer({ tools: [], handle: () => undefined }).connect();
  it.each([
    [
      { tasks: 'yes' },
      /mcpClient: tasks: expected false or \{ ttlMs\?, pollIntervalMs\?, maxPollIntervalMs\?, timeoutMs\? \}, received string "yes"/,
    ],
    [{ tasks: { pollIntervalMs: 0 } }, /mcpClient: tasks.pollIntervalMs/],
    [{ tasks: { maxPollIntervalMs: 2 ** 31 } }, /mcpClient: tasks.maxPollIntervalMs/],
    [{ tasks: { timeoutMs: Number.NaN } }, /mcpClient: tasks.timeoutMs/],
    [{ tasks: { ttlMs: -1 } }, /mcpClient: tasks.ttlMs/],
  ])('refuses %j at construction', (options, message) => {
    expect(() => mcpClient({ transport: transport(), ...(options as object) })).toThrow(message);
  });
});
