/**
 * Attack corpus for MCP Tasks on `mcpServer()`: task ids that are unknown, another
 * client's, huge or not strings; malformed `params.task`; a ttl beyond any limit; bad
 * cursors; cancelling a task that has ended; prototype keys in arguments. Each gets a
 * clear `-32602` (or is clamped) and nothing leaks between clients. Decision 096.
 */
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
  specTypeSchemas,
} from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type McpToolServer, mcpServer } from '../../src/ai/mcp/index.ts';
import { memoryStore, type Store } from '../../src/ai/session/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

const MAX_TTL_MS = 60_000;
const quick = tool({
  name: 'quick',
  description: 'Answers at once.',
  parameters: v.object({ text: v.string() }),
  execution: 'task-optional',
  execute: ({ text }) => `ok ${text}`,
});

let store: Store;
let server: McpToolServer;
beforeEach(() => {
  store = memoryStore();
  server = mcpServer({
    name: 'hostile',
    version: '1.0.0',
    tools: [quick],
    store,
    tasks: { maxTtlMs: MAX_TTL_MS, pollIntervalMs: 20 },
  });
});
afterEach(() => store.close());

type Send = (method: string, params: unknown, schema?: unknown) => Promise<any>;
const schemaOf: Record<string, unknown> = {
  'tools/call': specTypeSchemas.CreateTaskResult,
  'tasks/get': specTypeSchemas.GetTaskResult,
  'tasks/result': specTypeSchemas.CallToolResult,
  'tasks/list': specTypeSchemas.ListTasksResult,
  'tasks/cancel': specTypeSchemas.CancelTaskResult,
};

async function inMemoryClient(): Promise<{ send: Send; close(): Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'attacker', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    send: (method, params) =>
      client.request({ method, params } as never, schemaOf[method] as never) as Promise<any>,
    close: () => client.close(),
  };
}

interface AuthEndpoint {
  url: string;
  close(): Promise<void>;
}

/** The server over HTTP behind a stand-in for a bearer-token check: `authOf` names the principal. */
async function serveWithAuth(authOf: (req: IncomingMessage) => unknown): Promise<AuthEndpoint> {
  const handle = server.handler();
  const http: HttpServer = createServer((req, res) => {
    (req as IncomingMessage & { auth?: unknown }).auth = authOf(req);
    void handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await handle.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** An SDK client over HTTP sending `headers` with every request. */
async function connectAs(url: string, headers: Record<string, string>) {
  const client = new Client({ name: 'app', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  const send: Send = (method, params) =>
    client.request({ method, params } as never, schemaOf[method] as never) as Promise<any>;
  return { send, close: () => client.close() };
}

describe('task ids', () => {
  it.each([
    ['an unknown id', 'task_00000000000000000000000000000000', /Unknown task/],
    ['a huge id', 'x'.repeat(1_000_000), /at most 200 characters, received 1000000 characters/],
    ['an empty id', '', /non-empty string/],
  ])('answers %s with -32602 on get, result and cancel', async (_name, taskId, message) => {
    const client = await inMemoryClient();
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const error: any = await client.send(method, { taskId }).catch((e) => e);
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(message);
      expect(error.message.length).toBeLessThan(400); // never echoes the id whole
    }
    await client.close();
  });

  it.each([
    ['a number', 42],
    ['an object', { $gt: '' }],
    ['null', null],
  ])('refuses %s as a task id with -32602', async (_name, taskId) => {
    const client = await inMemoryClient();
    const error: any = await client.send('tasks/get', { taskId }).catch((e) => e);
    expect(error.code).toBe(-32602);
    await client.close();
  });
});

describe('params.task', () => {
  it.each([
    ['a string', 'soon'],
    ['an array', [1000]],
    ['a negative ttl', { ttl: -5 }],
    ['a zero ttl', { ttl: 0 }],
    ['a string ttl', { ttl: '60000' }],
  ])('refuses %s with -32602 and creates no task', async (_name, task) => {
    const client = await inMemoryClient();
    const error: any = await client
      .send('tools/call', { name: 'quick', arguments: { text: 'a' }, task })
      .catch((e) => e);
    expect(error.code).toBe(-32602);
    expect((await client.send('tasks/list', {})).tasks).toEqual([]);
    await client.close();
  });

  it('cuts a huge ttl to the server maximum, and uses the maximum when none is asked', async () => {
    const client = await inMemoryClient();
    const huge = await client.send('tools/call', {
      name: 'quick',
      arguments: { text: 'a' },
      task: { ttl: 1e308 },
    });
    expect(huge.task.ttl).toBe(MAX_TTL_MS);
    const none = await client.send('tools/call', {
      name: 'quick',
      arguments: { text: 'b' },
      task: {},
    });
    expect(none.task.ttl).toBe(MAX_TTL_MS);
    await client.close();
  });

  it('keeps prototype keys in arguments as data', async () => {
    const client = await inMemoryClient();
    const args = JSON.parse('{"text":"p","__proto__":{"polluted":true}}');
    const { task } = await client.send('tools/call', { name: 'quick', arguments: args, task: {} });
    await client.send('tasks/result', { taskId: task.taskId });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await client.close();
  });
});

it('refuses to cancel a task that has ended (-32602), and a cursor it did not make', async () => {
  const client = await inMemoryClient();
  const { task } = await client.send('tools/call', {
    name: 'quick',
    arguments: { text: 'c' },
    task: {},
  });
  await client.send('tasks/result', { taskId: task.taskId });
  const error: any = await client.send('tasks/cancel', { taskId: task.taskId }).catch((e) => e);
  expect(error.code).toBe(-32602);
  expect(error.message).toMatch(
    /already completed; only a task that has not ended can be cancelled/,
  );
  for (const cursor of [
    'not-a-cursor',
    'x'.repeat(100_000),
    Buffer.from('{}').toString('base64url'),
  ]) {
    const bad: any = await client.send('tasks/list', { cursor }).catch((e) => e);
    expect(bad.code).toBe(-32602);
    expect(bad.message).toMatch(/Invalid cursor/);
  }
  await client.close();
});

it.each([
  ['maxTtlMs above 2^31 − 1', { maxTtlMs: 2 ** 31 }, RangeError],
  ['a zero pollIntervalMs', { pollIntervalMs: 0 }, RangeError],
  ['an infinite leaseMs', { leaseMs: Number.POSITIVE_INFINITY }, RangeError],
  ['tasks: null', null, TypeError],
])('refuses %s at construction', (_name, tasks, type) => {
  expect(() =>
    mcpServer({ name: 's', version: '1', tools: [quick], store, tasks: tasks as never }),
  ).toThrow(type);
});

it('refuses a store that is not a fino session store', () => {
  expect(() => mcpServer({ name: 's', version: '1', tools: [quick], store: {} as never })).toThrow(
    /store: expected a fino session store/,
  );
});

describe('another client’s tasks', () => {
  let endpoint: AuthEndpoint;
  beforeEach(async () => {
    // What a bearer-token check in front of the endpoint does: it names the client.
    endpoint = await serveWithAuth((req) => {
      const clientId = String(req.headers['x-client']);
      return { token: clientId, clientId, scopes: [] };
    });
  });
  afterEach(() => endpoint.close());
  const as = (clientId: string) => connectAs(endpoint.url, { 'x-client': clientId });

  it('reads as an unknown task, and is not listed', async () => {
    const alice = await as('alice');
    const mallory = await as('mallory');
    const { task } = await alice.send('tools/call', {
      name: 'quick',
      arguments: { text: 'secret' },
      task: {},
    });
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const error: any = await mallory.send(method, { taskId: task.taskId }).catch((e) => e);
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/Unknown task/);
    }
    expect((await mallory.send('tasks/list', {})).tasks).toEqual([]);
    const result = await alice.send('tasks/result', { taskId: task.taskId });
    expect(result.content[0].text).toBe('ok secret');
    expect((await alice.send('tasks/list', {})).tasks.map((t: any) => t.taskId)).toEqual([
      task.taskId,
    ]);
    await alice.close();
    await mallory.close();
  });
});

describe('two users of one client application', () => {
  let endpoint: AuthEndpoint;
  beforeEach(async () => {
    // An OAuth check in front of the endpoint: every token was issued to the same
    // application ("app", or the one in x-client); x-sub is the token's subject, if any.
    endpoint = await serveWithAuth((req) => {
      const sub = req.headers['x-sub'];
      return {
        token: (req.headers.authorization ?? '').replace(/^Bearer /, ''),
        clientId: String(req.headers['x-client'] ?? 'app'),
        scopes: [],
        ...(sub === undefined ? {} : { extra: { sub: String(sub) } }),
      };
    });
  });
  afterEach(() => endpoint.close());
  const user = (headers: Record<string, string>) => connectAs(endpoint.url, headers);

  const cannotSee = async (owner: { send: Send }, other: { send: Send }) => {
    const { task } = await owner.send('tools/call', {
      name: 'quick',
      arguments: { text: 'mine' },
      task: {},
    });
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const error: any = await other.send(method, { taskId: task.taskId }).catch((e) => e);
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/Unknown task/);
    }
    const listed = async (who: { send: Send }) =>
      (await who.send('tasks/list', {})).tasks.map((t: any) => t.taskId);
    expect(await listed(other)).not.toContain(task.taskId);
    expect((await owner.send('tasks/result', { taskId: task.taskId })).content[0].text).toBe(
      'ok mine',
    );
    expect(await listed(owner)).toContain(task.taskId);
  };

  it('cannot list or read each other’s tasks: each token is its own owner', async () => {
    const ana = await user({ authorization: 'Bearer token-of-ana' });
    const bob = await user({ authorization: 'Bearer token-of-bob' });
    await cannotSee(ana, bob);
    await cannotSee(bob, ana);
    await ana.close();
    await bob.close();
  });

  it('tells subjects apart by their own parts (app + "x:y" is not app:x + "y")', async () => {
    const first = await user({ authorization: 'Bearer shared', 'x-sub': 'x:y' });
    const second = await user({
      authorization: 'Bearer shared',
      'x-client': 'app:x',
      'x-sub': 'y',
    });
    await cannotSee(first, second);
    await first.close();
    await second.close();
  });

  it('lets one subject read its tasks with a new token (a refreshed login)', async () => {
    const before = await user({ authorization: 'Bearer old', 'x-sub': 'ana' });
    const { task } = await before.send('tools/call', {
      name: 'quick',
      arguments: { text: 'kept' },
      task: {},
    });
    await before.close();
    const after = await user({ authorization: 'Bearer new', 'x-sub': 'ana' });
    expect((await after.send('tasks/result', { taskId: task.taskId })).content[0].text).toBe(
      'ok kept',
    );
    await after.close();
  });
});

describe('a store that fails while a task runs', () => {
  it('leaves no unhandled rejection: the server process survives', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const failing = memoryStore();
    const closer = tool({
      name: 'closer',
      description: 'Closes its own task store, so recording its result fails.',
      parameters: v.object({}),
      execution: 'task',
      execute: async () => {
        await failing.close();
        return 'done';
      },
    });
    const own = mcpServer({ name: 'failing', version: '1.0.0', tools: [closer], store: failing });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await own.connect(serverSide);
    const client = new Client({ name: 'caller', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const created: any = await client.request(
        { method: 'tools/call', params: { name: 'closer', arguments: {}, task: {} } } as never,
        specTypeSchemas.CreateTaskResult as never,
      );
      expect(created.task.status).toBe('working');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await client.close();
    }
  });
});
