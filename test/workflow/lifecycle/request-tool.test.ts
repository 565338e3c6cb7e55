/**
 * `workflowRequestTool`: a workflow's query and update served by `mcpServer`, called by
 * the official SDK client (v1) over Streamable HTTP; a refused update is an error result.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../../src/ai/mcp/index.ts';
import {
  memoryWorkflowStore,
  type Worker,
  type WorkflowStore,
  worker,
  workflow,
  workflowRequestTool,
} from '../../../src/workflow/index.ts';
import { connectTaskClient, type TaskClient } from '../../ai/mcp/fixtures/task-clients.ts';

const counter = workflow({
  id: 'counter',
  async run(ctx) {
    let count = 0;
    ctx.onQuery('count', () => count);
    ctx.onUpdate('add', (n: number) => (count += n), {
      validate: (n) => {
        if (typeof n !== 'number') throw new Error('expected a number');
      },
    });
    await ctx.waitForSignal('stop');
  },
});

let store: WorkflowStore;
let w: Worker;
let http: McpHttpServer;
let client: TaskClient;

beforeEach(async () => {
  store = memoryWorkflowStore();
  w = worker({ store, workflows: [counter], pollMs: 20, handleSignals: false });
  await w.start();
  http = await mcpServer({
    name: 'workflows',
    version: '1.0.0',
    tools: [
      workflowRequestTool(counter, { store, query: 'count' }),
      workflowRequestTool(counter, { store, update: 'add' }),
    ],
  }).listen();
  client = await connectTaskClient('v1', { url: http.url });
});
afterEach(async () => {
  await client.close().catch(() => undefined);
  await http.close();
  await w.stop();
  await store.close();
});

describe('workflowRequestTool over MCP', () => {
  it('lists the query and the update, and answers them from the run', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t: { name: string }) => t.name)).toEqual(['counter_count', 'counter_add']);
    const { runId } = await counter.start(undefined, { store });
    const added = await client.callTool('counter_add', { runId, args: 3 });
    expect(added.content).toEqual([{ type: 'text', text: '3' }]);
    const counted = await client.callTool('counter_count', { runId });
    expect(counted.content).toEqual([{ type: 'text', text: '3' }]);
    const refused = await client.callTool('counter_add', { runId, args: 'x' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toContain('was refused by its validator: expected a number');
  });
});
