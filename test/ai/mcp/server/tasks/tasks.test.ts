/**
 * MCP Tasks over Streamable HTTP with the official SDK clients (v1, and v2 in the 2025
 * era where tasks live): task-augmented calls, status and progress, approvals answered
 * over the protocol or through the session (`fino sessions approve`), suspensions, forms
 * (`ctx.elicit`, decision 126),
 * cancellation and listing. Decision 096.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../../../../src/ai/mcp/index.ts';
import { memoryStore, type Store, session } from '../../../../../src/ai/session/index.ts';
import { tool } from '../../../../../src/ai/tool/index.ts';
import { v } from '../../../../../src/validate/index.ts';
import { connectClient, fetchWithoutGetStream } from '../../fixtures/clients.ts';
import {
  connectTaskClient,
  type Elicit,
  pollTask,
  TASK_CLIENT_KINDS,
  type TaskClient,
} from '../../fixtures/task-clients.ts';

const text = (result: any) => result.content.map((c: any) => c.text).join('\n');

let runs: string[];
let gate: { open: () => void; wait: Promise<void> };
const newGate = () => {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, wait };
};

const build = tool({
  name: 'build',
  description: 'Builds the project, reporting progress.',
  parameters: v.object({ target: v.string() }),
  execution: 'task-optional',
  execute: async ({ target }, ctx) => {
    ctx.progress?.({ progress: 1, total: 2, message: `compiling ${target}` });
    await gate.wait;
    ctx.progress?.({ progress: 2, total: 2, message: `linked ${target}` });
    runs.push(`build ${target}`);
    return `built ${target}`;
  },
});
const deploy = tool({
  name: 'deploy',
  description: 'Deploys; a human approves each call.',
  parameters: v.object({ env: v.string() }),
  requiresApproval: true,
  risk: 'destructive',
  execution: 'task',
  execute: ({ env }) => {
    runs.push(`deploy ${env}`);
    return `deployed ${env}`;
  },
});
const greet = tool({
  name: 'greet',
  description: 'Asks for a name, then greets.',
  parameters: v.object({}),
  execution: 'task',
  execute: (_args, ctx) => {
    if (ctx.resumeValue === undefined) ctx.suspend('What is your name?');
    return `hello ${String(ctx.resumeValue)}`;
  },
});
const wait = tool({
  name: 'wait',
  description: 'Waits until cancelled.',
  parameters: v.object({}),
  execution: 'task',
  execute: (_args, ctx) =>
    new Promise<string>((_, reject) => {
      ctx.signal?.addEventListener('abort', () => {
        runs.push('wait aborted');
        reject(ctx.signal?.reason);
      });
    }),
});
const survey = tool({
  name: 'survey',
  description: 'Asks two forms, then answers with what they said.',
  parameters: v.object({}),
  execution: 'task',
  execute: async (_args, ctx) => {
    runs.push('survey');
    let who: Awaited<ReturnType<typeof ctx.elicit>>;
    try {
      who = await ctx.elicit({
        message: 'Who are you?',
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, age: { type: 'integer' } },
          required: ['name', 'age'],
        },
      });
    } catch (error) {
      return `refused: ${(error as Error).message}`;
    }
    if (who.action !== 'accept') return `no answer (${who.action})`;
    const sure = await ctx.elicit({
      message: `Send as ${String(who.content.name)}?`,
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return `${String(who.content.name)}, ${String(who.content.age)}: ${sure.action === 'accept' && sure.content.ok === true ? 'sent' : 'kept'}`;
  },
});
const echo = tool({
  name: 'echo',
  description: 'Echoes; never a task.',
  parameters: v.object({ text: v.string() }),
  execute: ({ text }) => text,
});

let store: Store;
let http: McpHttpServer;
const clients: TaskClient[] = [];
beforeEach(async () => {
  runs = [];
  gate = newGate();
  store = memoryStore();
  http = await mcpServer({
    name: 'tasks',
    version: '1.0.0',
    tools: [build, deploy, greet, wait, survey, echo],
    store,
    tasks: { pollIntervalMs: 20, maxTtlMs: 120_000 },
  }).listen();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await http.close();
  await store.close();
});
const connect = async (kind: (typeof TASK_CLIENT_KINDS)[number], elicit?: Elicit) => {
  const client = await connectTaskClient(kind, { url: http.url }, elicit);
  clients.push(client);
  return client;
};

describe.each(TASK_CLIENT_KINDS)('MCP tasks over HTTP, %s client', (kind) => {
  it('lists each tool’s task support (execution.taskSupport)', async () => {
    const client = await connect(kind);
    const { tools } = await client.listTools();
    const execution = Object.fromEntries(tools.map((t) => [t.name, t.execution]));
    expect(execution).toEqual({
      build: { taskSupport: 'optional' },
      deploy: { taskSupport: 'required' },
      greet: { taskSupport: 'required' },
      wait: { taskSupport: 'required' },
      survey: { taskSupport: 'required' },
      echo: undefined,
    });
  });

  it('answers a task-augmented call at once, keeps progress as the status message, then the result', async () => {
    const client = await connect(kind);
    const { task } = await client.callAsTask('build', { target: 'web' }, { ttl: 60_000 });
    expect(task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 20 });
    expect(task.taskId).toMatch(/^task_[0-9a-f]{32}$/);
    await pollTask(client, task.taskId, (t) => t.statusMessage === 'compiling web');
    expect(runs).toEqual([]);
    gate.open();
    const result = await client.taskResult(task.taskId);
    expect(text(result)).toBe('built web');
    expect(result._meta['io.modelcontextprotocol/related-task']).toEqual({ taskId: task.taskId });
    const done = await client.getTask(task.taskId);
    expect(done).toMatchObject({ status: 'completed', statusMessage: 'linked web' });
    expect(done.pollInterval).toBeUndefined();
    expect(runs).toEqual(['build web']);
    await vi.waitFor(() =>
      expect(client.statuses.map((t) => [t.status, t.statusMessage])).toContainEqual([
        'completed',
        'linked web',
      ]),
    );
  });

  it('runs an optional-task tool directly when called without params.task', async () => {
    gate.open();
    const client = await connect(kind);
    expect(text(await client.callTool('build', { target: 'cli' }))).toBe('built cli');
  });

  it('refuses params.task for a tool without task support, and a task-only tool without it (-32601)', async () => {
    const client = await connect(kind);
    await expect(client.callAsTask('echo', { text: 'x' })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringMatching(/does not run as a task/),
    });
    if (kind === 'v1') return; // the v1 client itself refuses to call a task-only tool directly
    await expect(client.callTool('wait', {})).rejects.toMatchObject({
      code: -32601,
      message: expect.stringMatching(/runs only as a task/),
    });
  });

  it('asks for approval through tasks/result and runs the tool once', async () => {
    const asked: any[] = [];
    const client = await connect(kind, (params) => {
      asked.push(params);
      return { action: 'accept', content: { approve: true } };
    });
    const { task } = await client.callAsTask('deploy', { env: 'prod' });
    const waiting = await pollTask(client, task.taskId, (t) => t.status === 'input_required');
    expect(waiting.statusMessage).toMatch(/^Waiting for approval: Allow "deploy" \(destructive\)/);
    expect(runs).toEqual([]);
    expect(text(await client.taskResult(task.taskId))).toBe('deployed prod');
    expect(asked).toHaveLength(1);
    expect(asked[0]._meta).toMatchObject({
      'io.modelcontextprotocol/related-task': { taskId: task.taskId },
      'fino/approval': { tool: 'deploy', arguments: { env: 'prod' } },
    });
    expect(runs).toEqual(['deploy prod']);
    expect(await store.audit(task.taskId)).toMatchObject([
      { action: 'approve', toolCallId: 'call', by: 'mcp client' },
    ]);
  });

  it('completes a rejected approval with an error result, without running the tool', async () => {
    const client = await connect(kind, () => ({ action: 'decline' }));
    const { task } = await client.callAsTask('deploy', { env: 'prod' });
    const result = await client.taskResult(task.taskId);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/was rejected.*It was not executed/);
    expect((await client.getTask(task.taskId)).status).toBe('completed');
    expect(runs).toEqual([]);
  });

  it('continues a task approved through the session (fino sessions approve), client not asked', async () => {
    const client = await connect(kind); // declares no elicitation: it cannot answer
    const { task } = await client.callAsTask('deploy', { env: 'staging' });
    const waiting = await pollTask(client, task.taskId, (t) => t.status === 'input_required');
    // The status message names the ways to approve without this client.
    expect(waiting.statusMessage).toContain(
      `with "fino sessions approve --db <the server's task store> ${task.taskId} call", or in the inbox (fino sessions serve --db <the server's task store>).`,
    );
    const decided = await session({ store }).approve(
      { runId: task.taskId, toolCallId: 'call' },
      { by: 'ana', note: 'release day' },
    );
    expect(decided.status).toBe('ready');
    expect(text(await client.taskResult(task.taskId))).toBe('deployed staging');
    expect(runs).toEqual(['deploy staging']);
  });

  it('runs the tool exactly once when the protocol and the session approve at the same time', async () => {
    const sessions = session({ store });
    let cli: Promise<unknown> | undefined;
    const client = await connect(kind, (params) => {
      const taskId = (params._meta as any)['io.modelcontextprotocol/related-task'].taskId;
      cli = sessions.approve({ runId: taskId, toolCallId: 'call' }, { by: 'ana' });
      return { action: 'accept', content: { approve: true } };
    });
    const { task } = await client.callAsTask('deploy', { env: 'prod' });
    expect(text(await client.taskResult(task.taskId))).toBe('deployed prod');
    const second = await cli!.then(
      () => 'recorded',
      (error: any) => error.code,
    );
    expect(['recorded', 'ALREADY_DECIDED']).toContain(second);
    await new Promise((resolve) => setTimeout(resolve, 100)); // a second run would show by now
    expect(runs).toEqual(['deploy prod']);
    expect((await store.audit(task.taskId)).filter((a) => a.action === 'approve')).toHaveLength(1);
  });

  it('rejects an approval form answered with content that does not fit it, asking once', async () => {
    let asked = 0;
    const client = await connect(kind, () => {
      asked++;
      return { action: 'accept', content: { approve: 'yes please' } } as never;
    });
    const { task } = await client.callAsTask('deploy', { env: 'prod' });
    const result = await client.taskResult(task.taskId);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /was rejected \(The client's approval did not fit the form: .*approve.*\)\. It was not executed\./,
    );
    expect(asked).toBe(1);
    expect((await client.getTask(task.taskId)).status).toBe('completed');
    expect(runs).toEqual([]);
    expect(await store.audit(task.taskId)).toMatchObject([
      { action: 'reject', toolCallId: 'call', by: 'mcp client' },
    ]);
  });

  it('puts a suspension to the client and resumes the tool with its answer', async () => {
    const client = await connect(kind, (params) => {
      expect(params.message).toBe('What is your name?');
      return { action: 'accept', content: { answer: 'Ada' } };
    });
    const { task } = await client.callAsTask('greet', {});
    const waiting = await pollTask(client, task.taskId, (t) => t.status === 'input_required');
    expect(waiting.statusMessage).toBe('What is your name?');
    expect(text(await client.taskResult(task.taskId))).toBe('hello Ada');
  });

  it('parks a task on ctx.elicit forms and resumes the tool with each answer in order', async () => {
    const asked: unknown[] = [];
    const client = await connect(kind, (params) => {
      asked.push({ message: params.message, schema: (params as any).requestedSchema });
      const content: Record<string, string | number | boolean> =
        params.message === 'Who are you?' ? { name: 'Ada', age: 36 } : { ok: true };
      return { action: 'accept', content };
    });
    const { task } = await client.callAsTask('survey', {});
    const waiting = await pollTask(client, task.taskId, (t) => t.status === 'input_required');
    expect(waiting.statusMessage).toBe('Who are you?');
    expect(text(await client.taskResult(task.taskId))).toBe('Ada, 36: sent');
    expect(asked).toEqual([
      {
        message: 'Who are you?',
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, age: { type: 'integer' } },
          required: ['name', 'age'],
        },
      },
      {
        message: 'Send as Ada?',
        schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      },
    ]);
    expect(runs).toEqual(['survey', 'survey', 'survey']); // parked twice, ran again each time
  });

  it("asks a task's forms on the tasks/result stream, for a client that never opens the GET stream", async () => {
    const client = await connectTaskClient(
      kind,
      { url: http.url, fetch: fetchWithoutGetStream() },
      (params) => {
        const content: Record<string, string | number | boolean> =
          params.message === 'Who are you?' ? { name: 'Ada', age: 36 } : { ok: true };
        return { action: 'accept', content };
      },
    );
    clients.push(client);
    const { task } = await client.callAsTask('survey', {});
    await pollTask(client, task.taskId, (t) => t.status === 'input_required');
    expect(text(await client.taskResult(task.taskId))).toBe('Ada, 36: sent');
  });

  it('resumes ctx.elicit with a declined form', async () => {
    const client = await connect(kind, () => ({ action: 'decline' }));
    const { task } = await client.callAsTask('survey', {});
    expect(text(await client.taskResult(task.taskId))).toBe('no answer (decline)');
  });

  it('answers a form accepted with content that does not fit it with an error, asking once', async () => {
    let asked = 0;
    const client = await connect(kind, () => {
      asked++;
      return { action: 'accept', content: { name: 'Ada', age: 'old' } } as never;
    });
    const { task } = await client.callAsTask('survey', {});
    const result = text(await client.taskResult(task.taskId));
    expect(result).toMatch(/^refused: ctx\.elicit: .*Who are you\?.*/s);
    expect(result).toMatch(/age/);
    expect(asked).toBe(1);
    expect((await client.getTask(task.taskId)).status).toBe('completed');
  });

  it('cancels a working task: the tool is aborted, the task is cancelled, a second cancel is -32602', async () => {
    const client = await connect(kind);
    const { task } = await client.callAsTask('wait', {});
    const cancelled = await client.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toEqual(['wait aborted']);
    expect((await client.getTask(task.taskId)).status).toBe('cancelled');
    await expect(client.cancelTask(task.taskId)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/already cancelled/),
    });
    const result = await client.taskResult(task.taskId);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/was cancelled/);
  });

  it('lists its tasks, oldest first, a page at a time', async () => {
    gate.open();
    const client = await connect(kind);
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      ids.push((await client.callAsTask('build', { target: String(i) })).task.taskId);
    }
    const first = await client.listTasks();
    expect(first.tasks).toHaveLength(50);
    const second = await client.listTasks(first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    expect([...first.tasks, ...second.tasks].map((t: any) => t.taskId)).toEqual(ids);
  });
});

it('works with the v1 client’s own task API (callToolStream)', async () => {
  gate.open();
  const client = new V1Client(
    { name: 'v1-stream', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  await client.connect(new V1HttpTransport(new URL(http.url)));
  try {
    const kinds: string[] = [];
    let result: any;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'build', arguments: { target: 'api' } },
      CallToolResultSchema,
      { task: { ttl: 30_000 } } as never,
    )) {
      kinds.push(message.type);
      if (message.type === 'result') result = message.result;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect(text(result)).toBe('built api');
  } finally {
    await client.close();
  }
});

it('sends a v1 client every progress update of a task, for the task’s lifetime', async () => {
  const stages = [newGate(), newGate()];
  const staged = tool({
    name: 'staged',
    description: 'Three stages, each reported.',
    parameters: v.object({}),
    execution: 'task',
    execute: async (_args, ctx) => {
      ctx.progress?.({ progress: 1, total: 3, message: 'stage 1' });
      await stages[0].wait;
      ctx.progress?.({ progress: 2, total: 3, message: 'stage 2' });
      await stages[1].wait;
      ctx.progress?.({ progress: 3, total: 3, message: 'stage 3' });
      return 'staged';
    },
  });
  const own = await mcpServer({
    name: 'progress',
    version: '1.0.0',
    tools: [staged],
    store,
    tasks: { pollIntervalMs: 20 },
  }).listen();
  const client = new V1Client({ name: 'v1-progress', version: '1.0.0' });
  await client.connect(new V1HttpTransport(new URL(own.url)));
  try {
    const seen: any[] = [];
    const created: any = await client.request(
      { method: 'tools/call', params: { name: 'staged', arguments: {}, task: {} } } as never,
      CreateTaskResultSchema,
      { onprogress: (update) => seen.push(update) },
    );
    expect(created.task.status).toBe('working');
    await vi.waitFor(() => expect(seen.map((p) => p.message)).toEqual(['stage 1']));
    stages[0].open();
    await vi.waitFor(() => expect(seen.map((p) => p.message)).toEqual(['stage 1', 'stage 2']));
    stages[1].open();
    await vi.waitFor(() =>
      expect(seen).toEqual([
        { progress: 1, total: 3, message: 'stage 1' },
        { progress: 2, total: 3, message: 'stage 2' },
        { progress: 3, total: 3, message: 'stage 3' },
      ]),
    );
    const result: any = await client.request(
      { method: 'tasks/result', params: { taskId: created.task.taskId } } as never,
      CallToolResultSchema,
    );
    expect(text(result)).toBe('staged');
  } finally {
    await client.close();
    await own.close();
  }
});

it('serves a v2 client on the 2026-07-28 revision (no tasks there) by calling directly', async () => {
  gate.open();
  const client = await connectClient('v2 (2026-07-28)', { url: http.url });
  try {
    const { tools } = await client.listTools();
    // That revision's tool has no `execution` field: its clients are not told to use tasks.
    expect(tools.find((t) => t.name === 'greet')?.execution).toBeUndefined();
    expect(text(await client.callTool('build', { target: 'edge' }))).toBe('built edge');
  } finally {
    await client.close();
  }
});
