/**
 * Attack corpus for `mcpClient()` task calls (decision 098): what a remote task server
 * answers. A task that never ends is bounded by the call's signal and the client's task
 * deadline; garbage, unknown statuses and absurd poll intervals become an `isError`
 * result naming the task (which is cancelled), never a hang or a crash; nothing a server
 * sends grows without bound or pollutes a prototype.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { type McpClientTaskOptions, mcpClient } from '../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import type { Progress } from '../../src/task/index.ts';
import { type RawConnection, RawError, rawTaskServer } from '../ai/mcp/fixtures/raw-task-server.ts';

const job: McpTool = {
  name: 'job',
  inputSchema: { type: 'object' },
  execution: { taskSupport: 'required' },
};
const TIMES = {
  createdAt: '2026-12-03T00:00:00Z',
  lastUpdatedAt: '2026-12-03T00:00:00Z',
  ttl: null,
};
const working = (extra: Record<string, unknown> = {}) => ({
  taskId: 't-1',
  status: 'working',
  pollInterval: 10,
  ...TIMES,
  ...extra,
});

/** A server whose `tasks/get` answers come from `gets` (the last repeats). */
function serverAnswering(
  gets: unknown[],
  more: (method: string, params: any, connection: RawConnection) => unknown = () => undefined,
) {
  let served = 0;
  return rawTaskServer({
    tools: [job],
    handle(method, params, connection) {
      if (method === 'tools/call') return { task: working() };
      if (method === 'tasks/get') return gets[Math.min(served++, gets.length - 1)];
      if (method === 'tasks/cancel') return { ...working(), status: 'cancelled' };
      return more(method, params, connection);
    },
  });
}

async function jobTool(server: ReturnType<typeof rawTaskServer>, tasks?: McpClientTaskOptions) {
  const client = mcpClient({ transport: server.connect(), ...(tasks ? { tasks } : {}) });
  const [tool] = await client.tools();
  return { tool, client };
}

const methods = (server: ReturnType<typeof rawTaskServer>) => server.received.map((r) => r.method);

describe('a remote task that never finishes', () => {
  it('is bounded by the call signal: tasks/cancel is sent and the abort reason thrown', async () => {
    const server = serverAnswering([working()]);
    const { tool, client } = await jobTool(server);
    const controller = new AbortController();
    const call = tool.invoke({}, { signal: controller.signal });
    while (methods(server).filter((m) => m === 'tasks/get').length < 2) {
      await new Promise((r) => setTimeout(r, 5));
    }
    controller.abort(new Error('stop'));
    await expect(call).rejects.toThrow('stop');
    // Sent without waiting for its answer: the caller is not kept waiting.
    while (!methods(server).includes('tasks/cancel')) await new Promise((r) => setTimeout(r, 5));
    await client.close();
  });

  it('is bounded by tasks.timeoutMs: an isError result, and the task cancelled', async () => {
    const server = serverAnswering([working()]);
    const { tool, client } = await jobTool(server, { timeoutMs: 30 });
    const result = await tool.invoke({});
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'The remote task "t-1" of "job" did not finish within 30 ms; it was cancelled.',
        },
      ],
      isError: true,
    });
    expect(methods(server).at(-1)).toBe('tasks/cancel');
    await client.close();
  });
});

describe('a tools/call answered after its caller aborted', () => {
  it('still gets its task cancelled, while the call rejected at once', async () => {
    let answer: (value: unknown) => void = () => {};
    const server = rawTaskServer({
      tools: [job],
      handle: (method) => {
        if (method === 'tools/call') return new Promise((resolve) => (answer = resolve));
        if (method === 'tasks/cancel') return { ...working(), status: 'cancelled' };
        return undefined;
      },
    });
    const { tool, client } = await jobTool(server);
    const controller = new AbortController();
    const call = tool.invoke({}, { signal: controller.signal });
    while (!methods(server).includes('tools/call')) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('gone'));
    await expect(call).rejects.toThrow('gone');
    answer({ task: working() });
    while (!methods(server).includes('tasks/cancel')) await new Promise((r) => setTimeout(r, 5));
    expect(server.received.at(-1)).toEqual({ method: 'tasks/cancel', params: { taskId: 't-1' } });
    await client.close();
  });
});

describe('a tools/call that never answers', () => {
  it('is bounded by tasks.timeoutMs: an isError result saying the task did not start', async () => {
    const server = rawTaskServer({
      tools: [job],
      handle: (method) => (method === 'tools/call' ? new Promise(() => {}) : undefined),
    });
    const { tool, client } = await jobTool(server, { timeoutMs: 30 });
    expect(await tool.invoke({})).toEqual({
      content: [
        {
          type: 'text',
          text: 'The remote tool "job" did not start its task within 30 ms (tasks.timeoutMs).',
        },
      ],
      isError: true,
    });
    await client.close();
  });
});

describe('tasks/get answering garbage', () => {
  const GARBAGE: [string, unknown, string][] = [
    [
      'a number as taskId',
      working({ taskId: 42 }),
      'tasks/get answered taskId: expected a non-empty string of at most 1000 characters, received number 42',
    ],
    [
      'no taskId',
      { status: 'working' },
      'tasks/get answered taskId: expected a non-empty string of at most 1000 characters, received undefined',
    ],
    ['another task', working({ taskId: 't-2' }), 'tasks/get answered another task, "t-2"'],
    [
      'a taskId of 10 000 characters',
      working({ taskId: 'x'.repeat(10_000) }),
      `tasks/get answered taskId: expected a non-empty string of at most 1000 characters, received string "${'x'.repeat(78)}…`,
    ],
    [
      'an unknown status',
      working({ status: 'exploding' }),
      'tasks/get answered status: expected working, input_required, completed, failed, cancelled, received string "exploding"',
    ],
    [
      'a status inherited from the prototype',
      Object.assign(Object.create({ status: 'completed' }), { taskId: 't-1' }),
      'tasks/get answered status: expected working, input_required, completed, failed, cancelled, received undefined',
    ],
  ];
  for (const [what, answer, problem] of GARBAGE) {
    it(`${what}: an isError result naming the task and the problem; the task is cancelled`, async () => {
      const server = serverAnswering([working(), answer]);
      const { tool, client } = await jobTool(server);
      const result = await tool.invoke({});
      expect(result).toEqual({
        content: [
          {
            type: 'text',
            text: `The remote task "t-1" of "job" could not be followed: ${problem}; it was cancelled.`,
          },
        ],
        isError: true,
      });
      expect(methods(server).at(-1)).toBe('tasks/cancel');
      await client.close();
    });
  }

  it('tools/call answering neither a task nor a result: an isError result', async () => {
    const server = rawTaskServer({
      tools: [job],
      handle: (method) => (method === 'tools/call' ? { task: 'soon' } : undefined),
    });
    const { tool, client } = await jobTool(server);
    expect(await tool.invoke({})).toEqual({
      content: [
        {
          type: 'text',
          text: 'The remote tool "job" did not start a task: tools/call answered string "soon"; expected a task object { taskId, status, … }.',
        },
      ],
      isError: true,
    });
    await client.close();
  });

  it('tasks/result answering no tool result: an isError result', async () => {
    const server = serverAnswering([working({ status: 'completed' })], (method) =>
      method === 'tasks/result' ? { content: 'not an array' } : undefined,
    );
    const { tool, client } = await jobTool(server);
    const result = await tool.invoke({});
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'The remote task "t-1" of "job" could not be followed: tasks/result answered object for task "t-1"; expected a tool result { content: [...] }; it was cancelled.',
      },
    ]);
    await client.close();
  });
});

describe('tasks/get answering no JSON object at all', () => {
  for (const [what, answer] of [
    ['a string', 'done!'],
    ['an array', [working()]],
  ] as const) {
    it(`${what}: bounded by the request timeout; the task is cancelled and the call fails`, async () => {
      const server = serverAnswering([working(), answer]);
      const client = mcpClient({ transport: server.connect(), timeoutMs: 100 });
      const [tool] = await client.tools();
      const result = await tool.invoke({});
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(
        /^following the remote task "t-1" failed \(tasks\/cancel was sent\): Request timed out$/,
      );
      expect(methods(server).at(-1)).toBe('tasks/cancel');
      await client.close();
    });
  }
});

describe('a resume naming a task the server does not know', () => {
  it('fails the call with the server error, without a second tools/call', async () => {
    const server = rawTaskServer({
      tools: [job],
      handle: (method) => {
        if (method === 'tasks/get' || method === 'tasks/cancel') {
          throw new RawError(-32602, 'Unknown task');
        }
        return undefined;
      },
    });
    const { tool, client } = await jobTool(server);
    const result = await tool.invoke(
      {},
      { resumeValue: { taskId: 'nope', answer: { action: 'accept', content: {} } } },
    );
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^following the remote task "nope" failed \(tasks\/cancel was sent\): .*Unknown task/,
    );
    expect(methods(server).slice(-2)).toEqual(['tasks/get', 'tasks/cancel']);
    expect(methods(server)).not.toContain('tools/call');
    await client.close();
  });
});

describe('poll intervals a server suggests', () => {
  it('a huge pollInterval is capped at maxPollIntervalMs', async () => {
    const huge = working({ pollInterval: 2_000_000_000 });
    const server = serverAnswering([huge, huge, working({ status: 'completed' })], (method) =>
      method === 'tasks/result' ? { content: [{ type: 'text', text: 'finished' }] } : undefined,
    );
    const { tool, client } = await jobTool(server, { maxPollIntervalMs: 10 });
    expect(await tool.invoke({})).toEqual({ content: [{ type: 'text', text: 'finished' }] });
    await client.close();
  });

  it('a zero, negative or non-numeric pollInterval is survived: the call still ends', async () => {
    const server = serverAnswering(
      [
        working({ pollInterval: 0 }),
        working({ pollInterval: -5 }),
        working({ pollInterval: 'fast' }),
        working({ status: 'completed' }),
      ],
      (method) =>
        method === 'tasks/result' ? { content: [{ type: 'text', text: 'finished' }] } : undefined,
    );
    const { tool, client } = await jobTool(server, { pollIntervalMs: 10 });
    expect(await tool.invoke({})).toEqual({ content: [{ type: 'text', text: 'finished' }] });
    expect(methods(server).filter((m) => m === 'tasks/get')).toHaveLength(4);
    await client.close();
  });
});

describe('what a task server sends along', () => {
  it('a status message of 100 000 characters reaches progress cut to 500', async () => {
    const server = serverAnswering(
      [working({ statusMessage: 'm'.repeat(100_000) }), working({ status: 'completed' })],
      (method) =>
        method === 'tasks/result' ? { content: [{ type: 'text', text: 'ok' }] } : undefined,
    );
    const { tool, client } = await jobTool(server);
    const updates: Progress[] = [];
    await tool.invoke({}, { progress: (p) => updates.push(p) });
    expect(updates).toEqual([{ progress: 1, message: 'm'.repeat(500) }]);
    await client.close();
  });

  it('progress notifications: well-formed ones for the call reach it, the rest are ignored', async () => {
    const server = rawTaskServer({
      tools: [job],
      handle: (method, params, connection) => {
        if (method === 'tools/call') {
          const progressToken = params._meta?.progressToken;
          for (const update of [
            { progress: -1 },
            { progress: 'half' },
            { progress: 1, total: -3, message: 'x'.repeat(10_000) },
            { progress: 2, total: 4 },
          ]) {
            connection.notify('notifications/progress', { progressToken, ...update });
          }
          connection.notify('notifications/progress', { progressToken: 'other', progress: 9 });
          return { task: working() };
        }
        if (method === 'tasks/get') return working({ status: 'completed' });
        if (method === 'tasks/result') return { content: [{ type: 'text', text: 'ok' }] };
        return undefined;
      },
    });
    const { tool, client } = await jobTool(server);
    const updates: Progress[] = [];
    expect(await tool.invoke({}, { progress: (p) => updates.push(p) })).toEqual({
      content: [{ type: 'text', text: 'ok' }],
    });
    expect(updates).toEqual([
      { progress: 1, message: 'x'.repeat(500) },
      { progress: 2, total: 4 },
    ]);
    await client.close();
  });

  it('a result bigger than the agent maxResultChars is cut by the agent', async () => {
    const server = serverAnswering([working({ status: 'completed' })], (method) =>
      method === 'tasks/result'
        ? { content: [{ type: 'text', text: 'z'.repeat(1_000_000) }] }
        : undefined,
    );
    const client = mcpClient({ transport: server.connect() });
    const bot = agent({
      model: scriptedModel([{ toolCalls: [{ id: 'j1', name: 'job', args: {} }] }, 'ok']),
      tools: await client.tools(),
      maxResultChars: 1_000,
    });
    const done = await bot.generate('go');
    expect(done.status).toBe('done');
    const sent = JSON.stringify(done.status === 'done' ? done.messages : []);
    expect(sent.length).toBeLessThan(10_000);
    await client.close();
  });

  it('a flood of questions for one task: four are held, the rest declined; withdrawn ones free their place', async () => {
    const answers: { question: number; answer: unknown }[] = [];
    let connection: RawConnection | undefined;
    const ask = (question: number) =>
      connection
        ?.request('elicitation/create', {
          mode: 'form',
          message: `question ${question}`,
          requestedSchema: { type: 'object', properties: {} },
          _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't-1' } },
        })
        .then((answer) => answers.push({ question, answer }));
    const server = serverAnswering([working({ status: 'input_required' })], (method, _p, c) => {
      if (method !== 'tasks/result') return undefined;
      connection = c;
      for (let i = 0; i < 10; i++) void ask(i); // request ids s1 … s10
      return new Promise(() => {}); // tasks/result never answers
    });
    const { tool, client } = await jobTool(server);
    await expect(tool.invoke({})).rejects.toMatchObject({
      name: 'SuspendSignal',
      message: 'question 0',
    });
    // The first is the call's question, four more are held: the other five are declined.
    while (answers.length < 5) await new Promise((r) => setTimeout(r, 5));
    expect(answers).toEqual(
      [5, 6, 7, 8, 9].map((question) => ({ question, answer: { action: 'decline' } })),
    );
    // The server withdraws four of the five held questions: three new ones are held, a fourth declined.
    for (let id = 1; id <= 4; id++) {
      connection?.notify('notifications/cancelled', { requestId: `s${id}` });
    }
    await connection?.request('ping', {}); // answered after the cancellations were read
    for (let question = 10; question < 14; question++) void ask(question);
    while (answers.length < 6) await new Promise((r) => setTimeout(r, 5));
    expect(answers[5]).toEqual({ question: 13, answer: { action: 'decline' } });
    await client.close();
  });

  it('a question for a task nobody follows goes to onElicit, and a "__proto__" task id pollutes nothing', async () => {
    const asked: string[] = [];
    const server = rawTaskServer({
      tools: [{ ...job, execution: undefined }],
      handle: async (method, _params, connection) => {
        if (method !== 'tools/call') return undefined;
        const answer = await connection.request('elicitation/create', {
          mode: 'form',
          message: 'stray',
          requestedSchema: { type: 'object', properties: {} },
          _meta: { 'io.modelcontextprotocol/related-task': { taskId: '__proto__' } },
        });
        return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
      },
    });
    const client = mcpClient({
      transport: server.connect(),
      onElicit: (request) => {
        asked.push(request.message);
        return { action: 'decline' };
      },
    });
    const [tool] = await client.tools();
    expect(await tool.invoke({})).toEqual({
      content: [{ type: 'text', text: '{"action":"decline"}' }],
    });
    expect(asked).toEqual(['stray']);
    expect(({} as Record<string, unknown>).followers).toBeUndefined();
    await client.close();
  });
});
