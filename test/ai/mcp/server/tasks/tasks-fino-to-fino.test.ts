/**
 * fino's `mcpClient()` against fino's `mcpServer()` with MCP Tasks (issue 15). Over
 * stdio the two speak the 2025-11-25 protocol and task tools run as tasks; over
 * Streamable HTTP they negotiate the 2026-07-28 revision and the same tools run as tasks
 * of its Tasks extension (decision 213), their questions answered through `tasks/update`
 * (decision 243).
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentEvent, agent } from '../../../../../src/ai/agent/index.ts';
import {
  httpTransport,
  type McpToolClient,
  mcpClient,
  mcpServer,
  type RemoteTaskInput,
  stdioTransport,
} from '../../../../../src/ai/mcp/index.ts';
import { scriptedModel } from '../../../../../src/ai/model/index.ts';
import { sqliteStore } from '../../../../../src/ai/session/index.ts';
import type { Tool } from '../../../../../src/ai/tool/index.ts';
import type { Progress } from '../../../../../src/task/index.ts';
import { tempDir } from '../../../../helpers/temp-dir.ts';
import { finoTaskTools, runsOf } from '../../fixtures/fino-task-tools.ts';

const root = fileURLToPath(new URL('../../../../..', import.meta.url));
const fixture = fileURLToPath(new URL('../../fixtures/fino-task-server.ts', import.meta.url));
const text = (result: { content: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((p) => p.text ?? '').join('');

const tests = tempDir('mcp-f2f');
let dir: string;
const clients: McpToolClient[] = [];
const cleanups: (() => Promise<void>)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tests, 'test-'));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * An agent on `first` calls `publish` for `site` and suspends on the remote task's
 * question; another agent on `second` (another client) resumes it with the approval.
 * Answers the resumed run's messages.
 */
async function approvedInAnotherClient(
  first: McpToolClient,
  second: () => McpToolClient,
  site: string,
): Promise<string> {
  const bot = agent({
    model: scriptedModel([{ toolCalls: [{ id: 'p1', name: 'publish', args: { site } }] }]),
    tools: await first.tools(),
  });
  const suspended = await bot.generate(`Publish ${site}`);
  expect(suspended.status).toBe('suspended');
  if (suspended.status !== 'suspended') throw new Error('not suspended');
  const [pending] = suspended.pending;
  const payload = pending.payload as RemoteTaskInput;
  expect(payload).toMatchObject({ tool: 'publish', request: { mode: 'form' } });
  expect(typeof payload.taskId).toBe('string');
  expect(runsOf(dir, 'publish')).toEqual([]);
  const saved = JSON.stringify(suspended.state);
  await first.close();

  const again = agent({ model: scriptedModel(['Published.']), tools: await second().tools() });
  const done = await again.resume(JSON.parse(saved), {
    [pending.toolCallId]: {
      resume: { taskId: payload.taskId, answer: { action: 'accept', content: { approve: true } } },
    },
  });
  expect(done.status).toBe('done');
  if (done.status !== 'done') throw new Error('not done');
  expect(done.text).toBe('Published.');
  return JSON.stringify(done.messages);
}

/** A fino client of a new fino server process over stdio, on the test's task database. */
const stdioClient = (options: { approveDestructive?: boolean } = {}) => {
  const client = mcpClient({
    transport: stdioTransport({
      command: process.execPath,
      args: ['--import', 'tsx', fixture],
      cwd: root,
      env: { ...(process.env as Record<string, string>), FINO_TASKS_DIR: dir },
      stderr: 'ignore',
    }),
    tasks: { pollIntervalMs: 20, timeoutMs: 30_000 },
    ...options,
  });
  clients.push(client);
  return client;
};

const toolNamed = (tools: Tool[], name: string) => {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

const collect = async (events: AsyncIterable<AgentEvent>) => {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
};

const stages = [1, 2, 3].map((stage) => ({
  progress: stage,
  total: 3,
  message: `stage ${stage} of 3`,
}));

describe('fino client, fino server, over stdio (tasks)', () => {
  it('runs an execution: task tool as a task; its progress reaches the local call', async () => {
    const client = stdioClient();
    const report = toolNamed(await client.tools(), 'slow_report');
    const updates: Progress[] = [];
    const result = await report.invoke(
      { quarter: 'Q3' },
      { progress: (update) => updates.push(update) },
    );
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Report for Q3 is ready.');
    // The server sends at most one notification per 100 ms (decision 094), and status
    // messages are polled: some stages may be folded, never reordered, the last one kept.
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) expect(stages).toContainEqual(update);
    expect(updates.map((u) => u.progress)).toEqual(updates.map((u) => u.progress).sort());
    expect(updates.at(-1)).toEqual(stages[2]);
    expect(runsOf(dir, 'slow_report')).toEqual(['Q3']);
  }, 30_000);

  it("an agent's stream shows the remote task's progress events", async () => {
    const client = stdioClient();
    const bot = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'r1', name: 'slow_report', args: { quarter: 'Q4' } }] },
        'The report is ready.',
      ]),
      tools: await client.tools(),
    });
    const events = await collect(bot.stream('Build the Q4 report'));
    const progress = events.flatMap((e) => (e.type === 'progress' ? [e] : []));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toEqual({
      type: 'progress',
      step: 0,
      toolCallId: 'r1',
      toolName: 'slow_report',
      progress: stages[2],
    });
    const result = events.find((e) => e.type === 'tool-result');
    expect(JSON.stringify(result)).toContain('Report for Q4 is ready.');
    expect(events.at(-1)?.type).toBe('finish');
  }, 30_000);

  it('an agent suspends on the remote input_required; another client and agent resume it, and the tool runs once', async () => {
    // approveDestructive: false: no local approval, so the remote task asks.
    const first = stdioClient({ approveDestructive: false });
    const messages = await approvedInAnotherClient(
      first,
      () => stdioClient({ approveDestructive: false }),
      'docs',
    );
    expect(messages).toContain('Published docs.');
    expect(runsOf(dir, 'publish')).toEqual(['docs']);
  }, 60_000);

  it('a requiresApproval task tool asks once: the agent approves, the task does not ask again', async () => {
    const first = stdioClient();
    const bot = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'p1', name: 'publish', args: { site: 'blog' } }] },
      ]),
      tools: await first.tools(),
    });
    const suspended = await bot.generate('Publish the blog');
    expect(suspended.status).toBe('suspended');
    if (suspended.status !== 'suspended') return;
    const saved = JSON.stringify(suspended.state);
    await first.close();
    expect(runsOf(dir, 'publish')).toEqual([]);

    const second = stdioClient();
    const again = agent({ model: scriptedModel(['Done.']), tools: await second.tools() });
    const done = await again.resume(JSON.parse(saved), {
      [suspended.pending[0].toolCallId]: { approve: true },
    });
    expect(done.status).toBe('done');
    if (done.status !== 'done') return;
    expect(JSON.stringify(done.messages)).toContain('Published blog.');
    expect(runsOf(dir, 'publish')).toEqual(['blog']);
  }, 60_000);
});

describe('fino client, fino server, over Streamable HTTP (2026-07-28: the Tasks extension)', () => {
  const serve = async (options: { approveDestructive?: boolean } = {}) => {
    const store = sqliteStore(join(dir, 'tasks.db'));
    const http = await mcpServer({
      name: 'fino-tasks',
      version: '1.0.0',
      tools: finoTaskTools(dir),
      store,
      tasks: { pollIntervalMs: 20 },
    }).listen({ host: '127.0.0.1', port: 0 });
    cleanups.push(async () => {
      await http.close();
      await store.close();
    });
    const connect = () => {
      const client = mcpClient({
        transport: httpTransport({ url: http.url }),
        tasks: { pollIntervalMs: 20, timeoutMs: 30_000 },
        ...options,
      });
      clients.push(client);
      return client;
    };
    const client = connect();
    return Object.assign(client, { another: connect });
  };

  it('runs the execution: task tool as a task and answers its result and progress', async () => {
    const client = await serve();
    const report = toolNamed(await client.tools(), 'slow_report');
    const updates: Progress[] = [];
    const result = await report.invoke(
      { quarter: 'Q1' },
      { progress: (update) => updates.push(update) },
    );
    expect(text(result)).toBe('Report for Q1 is ready.');
    // A 2026 task's progress reaches the local call as the status messages polled with
    // tasks/get (its notifications have no stream left to travel on), the last one kept.
    expect(updates.length).toBeGreaterThan(0);
    const messages = updates.map((update) => update.message);
    for (const message of messages) expect(stages.map((s) => s.message)).toContain(message);
    expect(messages.at(-1)).toBe(stages[2].message);
    expect(runsOf(dir, 'slow_report')).toEqual(['Q1']);
  }, 30_000);

  it('runs the requiresApproval tool once after the agent approves it', async () => {
    const client = await serve();
    const bot = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'p1', name: 'publish', args: { site: 'shop' } }] },
        'Done.',
      ]),
      tools: await client.tools(),
    });
    const suspended = await bot.generate('Publish the shop');
    expect(suspended.status).toBe('suspended');
    if (suspended.status !== 'suspended') return;
    const done = await bot.resume(JSON.parse(JSON.stringify(suspended.state)), {
      [suspended.pending[0].toolCallId]: { approve: true },
    });
    expect(done.status).toBe('done');
    if (done.status !== 'done') return;
    expect(JSON.stringify(done.messages)).toContain('Published shop.');
    expect(runsOf(dir, 'publish')).toEqual(['shop']);
  }, 30_000);

  it('an agent suspends on the task question tasks/get shows; another client answers it with tasks/update, and the tool runs once', async () => {
    const first = await serve({ approveDestructive: false });
    const messages = await approvedInAnotherClient(first, first.another, 'wiki');
    expect(messages).toContain('Published wiki.');
    expect(runsOf(dir, 'publish')).toEqual(['wiki']);
  }, 60_000);
});
