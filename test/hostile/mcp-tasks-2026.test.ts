/**
 * Attacks on the Tasks extension of 2026-07-28 (decisions 213, 214), sent as raw
 * requests: `tasks/get` and `tasks/cancel` for an unknown, forged or oversized task id,
 * and without the opt-in, and a task-only tool called without it (decision 244) — each a
 * clear JSON-RPC error, and the server keeps serving.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finoTaskHttpServer } from '../ai/mcp/fixtures/fino-task-http.ts';
import { runsOf } from '../ai/mcp/fixtures/fino-task-tools.ts';
import { modernRequest, RAW_CAPABILITIES } from '../ai/mcp/fixtures/modern-http.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const OPTED_IN = {
  ...RAW_CAPABILITIES,
  extensions: { 'io.modelcontextprotocol/tasks': {} },
};

const dir = mkdtempSync(join(tempDir('mcp-tasks-2026'), 'test-'));
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url, close } = await finoTaskHttpServer(dir));
});
afterAll(() => close());

describe('tasks/get and tasks/cancel on 2026-07-28, hostile', () => {
  it.each(['tasks/get', 'tasks/cancel'])('%s of an unknown task id is -32602', async (method) => {
    const answer = await modernRequest(url, method, { taskId: 'no-such-task' }, OPTED_IN);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/task/i);
  });

  it('a forged task id (not one this server made) is -32602, not a crash', async () => {
    for (const taskId of ['../../etc/passwd', "' OR 1=1 --", 'task-0000', 'x'.repeat(500)]) {
      const answer = await modernRequest(url, 'tasks/get', { taskId }, OPTED_IN);
      expect(answer.error?.code).toBe(-32602);
    }
  });

  it('a task id that is not a string, or oversized params, is refused with a clear error', async () => {
    const wrongType = await modernRequest(url, 'tasks/get', { taskId: 42 }, OPTED_IN);
    expect(wrongType.error?.code).toBe(-32602);
    const huge = await modernRequest(
      url,
      'tasks/get',
      { taskId: 'no-such-task', padding: 'x'.repeat(20_000_000) },
      OPTED_IN,
    );
    expect(huge.result).toBeUndefined();
    expect(huge.status === 413 || huge.error !== undefined).toBe(true);
  });

  it('without the opt-in, tasks/get is -32021 naming the extension', async () => {
    const answer = await modernRequest(url, 'tasks/get', { taskId: 'no-such-task' });
    expect(answer.error?.code).toBe(-32021);
    expect(answer.error?.message).toContain('io.modelcontextprotocol/tasks');
  });

  it("a 'task' tool called without the opt-in is -32021 naming the extension; it does not run", async () => {
    const answer = await modernRequest(url, 'tools/call', {
      name: 'slow_report',
      arguments: { quarter: 'Q0' },
    });
    expect(answer.error?.code).toBe(-32021);
    expect(answer.error?.message).toContain('slow_report');
    expect(answer.error?.message).toContain('io.modelcontextprotocol/tasks');
    expect((answer.error as { data?: unknown }).data).toMatchObject({
      requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    });
    expect(runsOf(dir, 'slow_report')).not.toContain('Q0');
  });

  it('the server still creates and answers tasks afterwards', async () => {
    const created = await modernRequest(
      url,
      'tools/call',
      { name: 'slow_report', arguments: { quarter: 'Q4' } },
      OPTED_IN,
    );
    expect(created.result?.resultType).toBe('task');
    const taskId = created.result.taskId;
    let task = created.result;
    for (let i = 0; i < 400 && task.status === 'working'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      task = (await modernRequest(url, 'tasks/get', { taskId }, OPTED_IN)).result;
    }
    expect(task.status).toBe('completed');
    expect(task.result.content[0].text).toBe('Report for Q4 is ready.');
  });
});
