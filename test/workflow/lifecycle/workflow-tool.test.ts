/**
 * `workflowTool`: a workflow served by `mcpServer` as a durable MCP Task, called by the
 * official SDK client (v1) over Streamable HTTP: the call starts one run per task, the
 * task reports what the run waits on, and its result is the run's output after a signal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../../src/ai/mcp/index.ts';
import { memoryStore, type Store } from '../../../src/ai/session/index.ts';
import { v } from '../../../src/validate/index.ts';
import {
  memoryWorkflowStore,
  type Worker,
  type WorkflowStore,
  worker,
  workflow,
  workflowTool,
} from '../../../src/workflow/index.ts';
import {
  connectTaskClient,
  pollTask,
  type TaskClient,
} from '../../ai/mcp/fixtures/task-clients.ts';

const refund = workflow({
  id: 'refund',
  input: v.object({ orderId: v.string() }),
  output: v.object({ refunded: v.boolean(), orderId: v.string() }),
  signals: { 'courier-scan': v.object({ ok: v.boolean() }) },
  async run(ctx, { orderId }) {
    await ctx.step('load-order', () => ({ orderId }));
    const scan = await ctx.waitForSignal<{ ok: boolean }>('courier-scan');
    if (scan?.ok === false) throw new Error(`parcel ${orderId} never arrived`);
    return { refunded: true, orderId };
  },
});

let wfStore: WorkflowStore;
let taskStore: Store;
let w: Worker;
let http: McpHttpServer;
let client: TaskClient;

beforeEach(async () => {
  wfStore = memoryWorkflowStore();
  taskStore = memoryStore();
  w = worker({ store: wfStore, workflows: [refund], pollMs: 20, handleSignals: false });
  await w.start();
  http = await mcpServer({
    name: 'workflows',
    version: '1.0.0',
    tools: [workflowTool(refund, { store: wfStore, pollMs: 20 })],
    store: taskStore,
    tasks: { pollIntervalMs: 20 },
  }).listen();
  client = await connectTaskClient('v1', { url: http.url });
});
afterEach(async () => {
  await client.close().catch(() => undefined);
  await http.close();
  await w.stop();
  await taskStore.close();
  await wfStore.close();
});

describe('workflowTool over MCP Tasks', () => {
  it('is listed as a task tool with the workflow’s input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools).toMatchObject([
      {
        name: 'refund',
        execution: { taskSupport: 'required' },
        inputSchema: { properties: { orderId: { type: 'string' } } },
        outputSchema: { properties: { refunded: { type: 'boolean' } } },
        annotations: { idempotentHint: true },
      },
    ]);
  });

  it('starts one run per task, shows what it waits on, and answers the run’s output after the signal', async () => {
    const created = await client.callAsTask('refund', { orderId: 'o-1' }, { ttl: 60_000 });
    const taskId = created.task.taskId as string;
    const waiting = await pollTask(client, taskId, (task) =>
      String(task.statusMessage).includes('waiting for signal "courier-scan"'),
    );
    expect(waiting.status).toBe('working');
    const [run] = await refund.list({ store: wfStore });
    expect(run).toMatchObject({ status: 'waiting', key: taskId, input: { orderId: 'o-1' } });
    expect(waiting.statusMessage).toContain(`run ${run.runId}`);

    await refund.signal({
      store: wfStore,
      runId: run.runId,
      name: 'courier-scan',
      payload: { ok: true },
    });
    const result = await client.taskResult(taskId);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ refunded: true, orderId: 'o-1' });
    expect(JSON.parse(result.content[0].text)).toEqual({ refunded: true, orderId: 'o-1' });
    expect((await client.getTask(taskId)).status).toBe('completed');
    expect(await refund.list({ store: wfStore })).toHaveLength(1);
  });

  it('a call with the same task id (a takeover after a restart) waits for the same run', async () => {
    const tool = workflowTool(refund, { store: wfStore, pollMs: 20 });
    const first = tool.invoke({ orderId: 'o-2' }, { idempotencyKey: 'task_same' });
    const again = tool.invoke({ orderId: 'o-2' }, { idempotencyKey: 'task_same' });
    for (let i = 0; i < 200 && (await refund.list({ store: wfStore })).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const runs = await refund.list({ store: wfStore });
    expect(runs).toHaveLength(1);
    await refund.signal({
      store: wfStore,
      runId: runs[0].runId,
      name: 'courier-scan',
      payload: { ok: true },
    });
    expect((await first).content).toBe('{"refunded":true,"orderId":"o-2"}');
    expect((await again).content).toBe('{"refunded":true,"orderId":"o-2"}');
    expect(await refund.list({ store: wfStore })).toHaveLength(1);
  });

  it('a failed run is an isError result naming the failure; bad input starts no run', async () => {
    const created = await client.callAsTask('refund', { orderId: 'o-3' }, { ttl: 60_000 });
    const taskId = created.task.taskId as string;
    await pollTask(client, taskId, (task) => String(task.statusMessage).includes('courier-scan'));
    const [run] = await refund.list({ store: wfStore });
    await refund.signal({
      store: wfStore,
      runId: run.runId,
      name: 'courier-scan',
      payload: { ok: false },
    });
    const result = await client.taskResult(taskId);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain(
      `workflow run "${run.runId}" failed: parcel o-3 never arrived`,
    );

    const bad = await client.callAsTask('refund', { orderId: 42 }, { ttl: 60_000 });
    const badResult = await client.taskResult(bad.task.taskId);
    expect(badResult.isError).toBe(true);
    expect(badResult.content[0].text).toContain('orderId');
    expect(await refund.list({ store: wfStore })).toHaveLength(1);
  });

  it('aborting the call stops the waiting, not the run', async () => {
    const tool = workflowTool(refund, { store: wfStore, pollMs: 20 });
    const controller = new AbortController();
    const call = tool.invoke(
      { orderId: 'o-4' },
      { idempotencyKey: 'k-4', signal: controller.signal },
    );
    for (
      let i = 0;
      i < 200 && (await refund.list({ store: wfStore, status: 'waiting' })).length === 0;
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect((await refund.list({ store: wfStore }))[0].status).toBe('waiting');
  });

  it('hashes an idempotency key longer than a store keeps, still one run per key', async () => {
    const tool = workflowTool(refund, { store: wfStore, pollMs: 20 });
    const long = 'k'.repeat(5_000);
    const controller = new AbortController();
    const calls = [1, 2].map(() =>
      tool.invoke({ orderId: 'o-5' }, { idempotencyKey: long, signal: controller.signal }),
    );
    for (let i = 0; i < 200 && (await refund.list({ store: wfStore })).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const runs = await refund.list({ store: wfStore });
    expect(runs).toHaveLength(1);
    expect(runs[0].key).toMatch(/^sha256:[0-9a-f]{64}$/);
    controller.abort();
    for (const call of calls) await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses what is not a workflow or a store, saying what was expected', () => {
    expect(() => workflowTool({} as never, { store: wfStore })).toThrow(
      'workflowTool(workflow, options): expected a workflow',
    );
    expect(() => workflowTool(refund, { store: {} as never })).toThrow(
      'workflowTool(refund): store: expected a workflow store such as sqliteWorkflowStore(), received object',
    );
    expect(() => workflowTool(refund, { store: wfStore, pollMs: 0 })).toThrow(
      'pollMs: expected a number of milliseconds ≥ 1, received 0',
    );
  });
});
