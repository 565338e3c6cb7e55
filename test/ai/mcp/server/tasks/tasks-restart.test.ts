/**
 * A task survives its server: the server process is killed (SIGKILL) while tasks are
 * working or waiting, a new one starts on the same SQLite file, and the official SDK
 * clients get every task answered by the rule of decision 096 — a non-idempotent tool
 * interrupted mid-run fails (it may have partly run), an idempotent one runs again, and
 * one waiting for approval still waits and runs exactly once when approved, and one still
 * queued for a running slot (it never started) is started (decision 116).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../helpers/temp-dir.ts';
import type { Target } from '../../fixtures/clients.ts';
import {
  connectTaskClient,
  pollTask,
  TASK_CLIENT_KINDS,
  type TaskClient,
} from '../../fixtures/task-clients.ts';

const fixture = fileURLToPath(new URL('../../fixtures/task-server.ts', import.meta.url));
const text = (result: any) => result.content.map((c: any) => c.text).join('\n');
const lines = (file: string) =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];

const tests = tempDir('mcp-tasks');
let dir: string;
const open: TaskClient[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tests, 'test-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => undefined)));
});

const target = (env: Record<string, string> = {}): Target => ({
  command: process.execPath,
  args: ['--import', 'tsx', fixture],
  env: {
    ...(process.env as Record<string, string>),
    FINO_TASKS_DIR: dir,
    FINO_TASKS_DB: join(dir, 'tasks.db'),
    FINO_TASKS_PER_OWNER: '',
    ...env,
  },
});

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(check()).toBe(true);
};

describe.each(TASK_CLIENT_KINDS)('MCP tasks across a server crash, %s client', (kind) => {
  it('answers every task started before a SIGKILL once the server is back', async () => {
    const first = await connectTaskClient(kind, target());
    open.push(first);
    const report = (await first.callAsTask('write_report', { title: 'Q3' }, { ttl: 60_000 })).task;
    const index = (await first.callAsTask('refresh_index', {})).task;
    const publish = (await first.callAsTask('publish', { site: 'docs' })).task;
    expect(report.status).toBe('working');
    await waitFor(() => lines(join(dir, 'write_report')).length === 1);
    await waitFor(() => lines(join(dir, 'refresh_index')).length === 1);
    await pollTask(first, publish.taskId, (t) => t.status === 'input_required');
    await pollTask(first, report.taskId, (t) => t.statusMessage === 'writing Q3');

    process.kill(first.pid()!, 'SIGKILL');

    let asked = 0;
    const second = await connectTaskClient(kind, target(), () => {
      asked++;
      return { action: 'accept', content: { approve: true } };
    });
    open.push(second);
    const failed = await pollTask(second, report.taskId, (t) => t.status !== 'working');
    expect(failed).toMatchObject({ status: 'failed', ttl: 60_000 });
    expect(failed.statusMessage).toMatch(/interrupted by a server restart/);
    const reportResult = await second.taskResult(report.taskId);
    expect(reportResult.isError).toBe(true);
    expect(text(reportResult)).toMatch(/interrupted by a server restart/);
    expect(lines(join(dir, 'write_report'))).toEqual(['Q3']); // never run twice

    const indexResult = await second.taskResult(index.taskId);
    expect(text(indexResult)).toBe('index rebuilt (run 2)');
    expect(indexResult._meta['io.modelcontextprotocol/related-task']).toEqual({
      taskId: index.taskId,
    });

    expect((await second.getTask(publish.taskId)).status).toBe('input_required');
    expect(lines(join(dir, 'publish'))).toEqual([]);
    expect(text(await second.taskResult(publish.taskId))).toBe('published docs');
    expect(asked).toBe(1);
    expect(lines(join(dir, 'publish'))).toEqual(['docs']);

    const { tasks } = await second.listTasks();
    expect(tasks.map((t: any) => [t.taskId, t.status])).toEqual([
      [report.taskId, 'failed'],
      [index.taskId, 'completed'],
      [publish.taskId, 'completed'],
    ]);
  }, 60_000);
});

it('starts a task that was still queued when its server was killed (it never ran)', async () => {
  const first = await connectTaskClient('v2 (2025 era)', target({ FINO_TASKS_PER_OWNER: '1' }));
  open.push(first);
  const running = (await first.callAsTask('write_report', { title: 'A' })).task;
  const queued = (await first.callAsTask('write_report', { title: 'B' })).task;
  await pollTask(first, running.taskId, (t) => t.statusMessage === 'writing A');
  await pollTask(first, queued.taskId, (t) => /^Queued, not started yet/.test(t.statusMessage));
  expect(lines(join(dir, 'write_report'))).toEqual(['A']);

  process.kill(first.pid()!, 'SIGKILL');

  const second = await connectTaskClient('v2 (2025 era)', target());
  open.push(second);
  const failed = await pollTask(second, running.taskId, (t) => t.status !== 'working');
  expect(failed.statusMessage).toMatch(/interrupted by a server restart/); // it may have partly run
  const started = await pollTask(second, queued.taskId, (t) => t.statusMessage === 'writing B');
  expect(started.status).toBe('working'); // not failed: it had not started
  expect(lines(join(dir, 'write_report'))).toEqual(['A', 'B']);
}, 60_000);
