/**
 * Bounded MCP tasks (decision 116): one client's flood of task calls runs a few at a
 * time (the rest wait, `working` with a status message saying they are queued); two
 * clients share the server's running slots; past the stored or queued limit a task call
 * is a clear `-32600`. Driven by the official v2 SDK client over Streamable HTTP.
 */
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client,
  StreamableHTTPClientTransport,
  specTypeSchemas,
} from '@modelcontextprotocol/client';
import { afterEach, expect, it, vi } from 'vitest';
import { type McpServerOptions, mcpServer } from '../../src/ai/mcp/index.ts';
import { memoryStore, type Store } from '../../src/ai/session/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

let running = 0;
let mostRunning = 0;
let release: () => void = () => {};
let released = new Promise<void>((resolve) => {
  release = resolve;
});
const slow = tool({
  name: 'slow',
  description: 'Holds its slot until the test lets it go.',
  parameters: v.object({ n: v.number() }),
  execution: 'task',
  execute: async ({ n }) => {
    running++;
    mostRunning = Math.max(mostRunning, running);
    await released;
    running--;
    return `done ${n}`;
  },
});

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  release();
  for (const close of closers.splice(0).reverse()) await close();
  running = 0;
  mostRunning = 0;
  released = new Promise<void>((resolve) => {
    release = resolve;
  });
});

/** A server whose clients are told apart by a bearer token (its subject is the token). */
async function serve(tasks: McpServerOptions['tasks']) {
  const store: Store = memoryStore();
  const handle = mcpServer({
    name: 'limits',
    version: '1.0.0',
    tools: [slow],
    store,
    tasks,
  }).handler();
  const http: HttpServer = createServer((req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    (req as IncomingMessage & { auth?: unknown }).auth = { token, clientId: 'app', scopes: [] };
    void handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  closers.push(
    () => store.close(),
    () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
    () => handle.close(),
  );
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  return async (token: string) => {
    const client = new Client({ name: token, version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    closers.push(() => client.close());
    const call = (n: number) =>
      client.request(
        { method: 'tools/call', params: { name: 'slow', arguments: { n }, task: {} } } as never,
        specTypeSchemas.CreateTaskResult as never,
      ) as Promise<any>;
    const get = (taskId: string) =>
      client.request(
        { method: 'tasks/get', params: { taskId } } as never,
        specTypeSchemas.GetTaskResult as never,
      ) as Promise<any>;
    const result = (taskId: string) =>
      client.request(
        { method: 'tasks/result', params: { taskId } } as never,
        specTypeSchemas.CallToolResult as never,
      ) as Promise<any>;
    return { call, get, result };
  };
}

it('runs 1,000 task calls of one client a few at a time; the others say they are queued', async () => {
  const connect = await serve({ pollIntervalMs: 50 }); // the default limits
  const client = await connect('ana');
  const created: any[] = [];
  for (let start = 0; start < 1000; start += 100) {
    const batch = Array.from({ length: 100 }, (_, i) => client.call(start + i));
    created.push(...(await Promise.all(batch)));
  }
  expect(created).toHaveLength(1000);
  await vi.waitFor(() => expect(running).toBe(4)); // tasks.maxRunningPerOwner, by default 4
  const last = await client.get(created[999].task.taskId);
  expect(last.status).toBe('working');
  expect(last.statusMessage).toMatch(
    /^Queued, not started yet: waiting for a free slot \(at most 4 running tasks per client, 16 in all\)\.$/,
  );
  release();
  const results = await Promise.all(created.slice(990).map((c) => client.result(c.task.taskId)));
  expect(results.map((r) => r.content[0].text)).toEqual(
    Array.from({ length: 10 }, (_, i) => `done ${990 + i}`),
  );
  expect(mostRunning).toBe(4);
}, 120_000);

it('shares the server’s running slots between clients, and refuses past the stored limit', async () => {
  const connect = await serve({ maxRunning: 3, maxRunningPerOwner: 2, maxStoredPerOwner: 5 });
  const ana = await connect('ana');
  const bob = await connect('bob');
  const anas = await Promise.all([0, 1, 2, 3, 4].map((n) => ana.call(n)));
  const bobs = await Promise.all([10, 11].map((n) => bob.call(n)));
  await vi.waitFor(() => expect(running).toBe(3)); // ana 2, bob 1: the server's 3
  const refused = await ana.call(5).catch((error) => error);
  expect(refused.code).toBe(-32600);
  expect(refused.message).toMatch(
    /^Too many tasks: this client keeps 5 tasks, the most allowed \(tasks\.maxStoredPerOwner\)/,
  );
  expect((await bob.call(12)).task.status).toBe('working'); // bob's own count is 3
  release();
  for (const { task } of [...anas, ...bobs]) {
    expect(
      (await ana.result(task.taskId).catch(() => bob.result(task.taskId))).content[0].text,
    ).toMatch(/^done/);
  }
  expect(mostRunning).toBe(3);
});

it('refuses a task call when the queue is full', async () => {
  const connect = await serve({ maxRunning: 1, maxRunningPerOwner: 1, maxQueued: 2 });
  const ana = await connect('ana');
  await Promise.all([0, 1, 2].map((n) => ana.call(n))); // one runs, two wait
  await vi.waitFor(() => expect(running).toBe(1));
  const refused = await ana.call(3).catch((error) => error);
  expect(refused.code).toBe(-32600);
  expect(refused.message).toBe(
    'Too many tasks: this server already has 2 tasks waiting to run (tasks.maxQueued); try again later.',
  );
});

it.each([
  ['maxRunning: 0', { maxRunning: 0 }],
  ['maxRunningPerOwner: 1.5', { maxRunningPerOwner: 1.5 }],
  ['maxStoredPerOwner: "10"', { maxStoredPerOwner: '10' }],
  ['maxQueued: -1', { maxQueued: -1 }],
])('refuses %s at construction', (_name, tasks) => {
  expect(() =>
    mcpServer({ name: 's', version: '1', tools: [slow], tasks: tasks as never }),
  ).toThrow(/mcpServer: tasks\.max\w+: expected a whole number of at least [01], received/);
});
