/**
 * A workflow served as an MCP task survives its server: the server process is killed
 * (SIGKILL) while the task waits for the run's signal, a new one starts on the same
 * SQLite files, takes the task over, and the official SDK client gets the output of the
 * one run — the task's re-run reattaches to it instead of starting another.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { sqliteWorkflowStore } from '../../../src/workflow/index.ts';
import type { Target } from '../../ai/mcp/fixtures/clients.ts';
import {
  connectTaskClient,
  pollTask,
  type TaskClient,
} from '../../ai/mcp/fixtures/task-clients.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { refund } from '../fixtures/mcp-workflow-server.ts';

const fixture = fileURLToPath(new URL('../fixtures/mcp-workflow-server.ts', import.meta.url));
const dir = tempDir('wf-mcp');
const open: TaskClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => undefined)));
});

const target: Target = {
  command: process.execPath,
  args: ['--import', 'tsx', fixture],
  env: {
    ...(process.env as Record<string, string>),
    FINO_TASKS_DB: join(dir, 'tasks.db'),
    FINO_WORKFLOWS_DB: join(dir, 'workflows.db'),
  },
};

it('answers the run’s output after a SIGKILL of the server, from one run', async () => {
  const first = await connectTaskClient('v1', target);
  open.push(first);
  const { task } = await first.callAsTask('refund', { orderId: 'o-9' }, { ttl: 120_000 });
  await pollTask(first, task.taskId, (t) =>
    String(t.statusMessage).includes('waiting for signal "courier-scan"'),
  );

  process.kill(first.pid()!, 'SIGKILL');

  const second = await connectTaskClient('v1', target);
  open.push(second);
  const store = sqliteWorkflowStore(join(dir, 'workflows.db'));
  try {
    const [run] = await refund.list({ store });
    expect(run).toMatchObject({ status: 'waiting', key: task.taskId });
    await refund.signal({ store, runId: run.runId, name: 'courier-scan', payload: { ok: true } });
    const result = await second.taskResult(task.taskId);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ refunded: true, orderId: 'o-9' });
    expect(await refund.list({ store })).toHaveLength(1);
  } finally {
    await store.close();
  }
}, 60_000);
