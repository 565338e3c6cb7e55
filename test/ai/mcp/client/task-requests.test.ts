/**
 * fino's client ↔ fino's server over Streamable HTTP in the default negotiation
 * (2026-07-28): a tool declaring `execution: 'task'` runs as a durable task of the Tasks
 * extension (decision 213) — the call opts in per request, the created task is polled
 * with `tasks/get` until its inlined result, and an abort sends `tasks/cancel`.
 */
import { appendFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpClient } from '../../../../src/ai/mcp/index.ts';
import { type Tool, tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { finoTaskHttpServer } from '../fixtures/fino-task-http.ts';
import { runsOf } from '../fixtures/fino-task-tools.ts';

const text = (result: { content: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((p) => p.text ?? '').join('');

const tests = tempDir('mcp-task-ext');
let dir: string;
const cleanups: (() => Promise<unknown>)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tests, 'test-'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** A tool that runs until its task is cancelled, recording its start and its end. */
const endless = (): Tool =>
  tool({
    name: 'endless',
    description: 'Works until cancelled.',
    parameters: v.object({}),
    execution: 'task',
    execute: async (_args, ctx) => {
      appendFileSync(join(dir, 'endless'), 'started\n');
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      appendFileSync(join(dir, 'endless'), 'stopped\n');
      return 'stopped';
    },
  });

/** The JSON-RPC requests the client sent, read from its HTTP bodies. */
interface Sent {
  method: string;
  params: Record<string, any>;
}

/** A fino server over HTTP and a fino client recording what it sends. */
const serve = async (timeoutMs = 30_000) => {
  const http = await finoTaskHttpServer(dir, [endless()]);
  const sent: Sent[] = [];
  const recording: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') {
      const message = JSON.parse(init.body);
      if (typeof message.method === 'string') sent.push(message);
    }
    return fetch(input, init);
  };
  const client = mcpClient({
    transport: new StreamableHTTPClientTransport(new URL(http.url), { fetch: recording }),
    tasks: { pollIntervalMs: 20, timeoutMs },
  });
  cleanups.push(
    () => http.close(),
    () => client.close(),
  );
  const tools = await client.tools();
  const named = (name: string) => tools.find((t) => t.name === name) as Tool;
  return { client, named, sent, methods: () => sent.map((m) => m.method) };
};

const optedIn = (message: Sent) =>
  message.params._meta['io.modelcontextprotocol/clientCapabilities']?.extensions?.[
    'io.modelcontextprotocol/tasks'
  ];

describe('the Tasks extension, fino client ↔ fino server over HTTP (2026-07-28)', () => {
  it('runs an execution: task tool as a task and fetches its result by polling tasks/get', async () => {
    const { client, named, sent, methods } = await serve();
    expect(client.protocolVersion()).toBe('2026-07-28');
    const result = await named('slow_report').invoke({ quarter: 'Q2' });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('Report for Q2 is ready.');
    expect(runsOf(dir, 'slow_report')).toEqual(['Q2']);
    const call = sent.find((m) => m.method === 'tools/call') as Sent;
    expect(optedIn(call)).toEqual({});
    expect(call.params.task).toBeUndefined(); // the server decides, not params.task
    const polls = sent.filter((m) => m.method === 'tasks/get');
    expect(polls.length).toBeGreaterThan(0);
    for (const poll of polls) expect(optedIn(poll)).toEqual({});
    expect(methods()).not.toContain('tasks/result'); // not in the extension
  }, 30_000);

  it('cancels the task with tasks/cancel when the call is aborted', async () => {
    const { named, sent } = await serve();
    const abort = new AbortController();
    const calling = named('endless').invoke({}, { signal: abort.signal });
    for (let i = 0; i < 400 && !sent.some((m) => m.method === 'tasks/get'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    abort.abort(new Error('the user stopped'));
    await expect(calling).rejects.toThrow('the user stopped');
    for (let i = 0; i < 400 && !sent.some((m) => m.method === 'tasks/cancel'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const cancel = sent.find((m) => m.method === 'tasks/cancel') as Sent;
    const polled = sent.find((m) => m.method === 'tasks/get') as Sent;
    expect(cancel.params.taskId).toBe(polled.params.taskId);
    expect(optedIn(cancel)).toEqual({});
  }, 30_000);

  it('a task that stays working is bounded by tasks.timeoutMs: cancelled, with a clear error', async () => {
    const { named, methods } = await serve(1_000);
    const result = await named('endless').invoke({});
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^The remote task "[^"]+" of "endless" did not finish within 1000 ms; it was cancelled\.$/,
    );
    expect(methods()).toContain('tasks/cancel');
  }, 30_000);
});
