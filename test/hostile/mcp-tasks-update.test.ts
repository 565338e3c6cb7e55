/**
 * Attacks on `tasks/update`, the Tasks extension's way to answer a waiting task on
 * 2026-07-28 (decision 242), sent as raw requests against a `requiresApproval` task tool:
 * forged keys, answers that are not answers, replays and races, answers for a task that
 * is not waiting. Nothing runs the tool but one approval, and each bad request gets a
 * clear answer.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finoTaskHttpServer } from '../ai/mcp/fixtures/fino-task-http.ts';
import { runsOf } from '../ai/mcp/fixtures/fino-task-tools.ts';
import { modernRequest, RAW_CAPABILITIES } from '../ai/mcp/fixtures/modern-http.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const OPTED_IN = { ...RAW_CAPABILITIES, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const APPROVE = { action: 'accept', content: { approve: true } };

const dir = mkdtempSync(join(tempDir('mcp-tasks-update'), 'test-'));
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url, close } = await finoTaskHttpServer(dir));
});
afterAll(() => close());

const get = async (taskId: string) =>
  (await modernRequest(url, 'tasks/get', { taskId }, OPTED_IN)).result;
const update = (taskId: string, inputResponses: unknown) =>
  modernRequest(url, 'tasks/update', { taskId, inputResponses }, OPTED_IN);

/** Polls the task until `done` holds for it (at most ~10 s). */
async function until(taskId: string, done: (task: any) => boolean) {
  let task = await get(taskId);
  for (let i = 0; i < 400 && !done(task); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    task = await get(taskId);
  }
  return task;
}

/** A `publish` task of `site`, waiting for its approval; its task id and the approval's key. */
async function waitingPublish(site: string) {
  const created = await modernRequest(
    url,
    'tools/call',
    { name: 'publish', arguments: { site } },
    OPTED_IN,
  );
  expect(created.result?.resultType).toBe('task');
  const taskId: string = created.result.taskId;
  const task = await until(taskId, (t) => t.status === 'input_required');
  const keys = Object.keys(task.inputRequests ?? {});
  expect(keys).toHaveLength(1);
  return { taskId, key: keys[0], request: task.inputRequests[keys[0]] };
}

describe('tasks/update on 2026-07-28, hostile', () => {
  it('a waiting task shows its approval as an elicitation form under a key of its own', async () => {
    const { key, request } = await waitingPublish('questions.example');
    expect(key).toMatch(/^fino\.approval\.[0-9a-f]{16}$/u);
    expect(request.method).toBe('elicitation/create');
    expect(request.params.message).toContain('publish');
    expect(request.params.requestedSchema.properties.approve.type).toBe('boolean');
    expect(request.params._meta['fino/approval']).toEqual({
      tool: 'publish',
      arguments: { site: 'questions.example' },
    });
  });

  it('forged and unknown keys are ignored and named; the task keeps waiting and nothing runs', async () => {
    const { taskId, key } = await waitingPublish('forged.example');
    const forged = ['fino.approval.0000000000000000', `${key}x`, '__proto__', 'approval'];
    const answer = await update(taskId, Object.fromEntries(forged.map((k) => [k, APPROVE])));
    expect(answer.error).toBeUndefined();
    expect(answer.result.resultType).toBe('complete');
    expect(answer.result._meta['fino/ignoredInputResponses'].sort()).toEqual(
      forged.filter((k) => k !== '__proto__').sort(),
    );
    const task = await get(taskId);
    expect(task.status).toBe('input_required');
    expect(Object.keys(task.inputRequests)).toEqual([key]);
    expect(runsOf(dir, 'publish')).not.toContain('forged.example');
  });

  it('an answer that is not an elicitation result rejects the call, once; the tool never runs', async () => {
    const { taskId, key } = await waitingPublish('garbage.example');
    expect((await update(taskId, { [key]: { approve: true } })).result.resultType).toBe('complete');
    const task = await until(taskId, (t) => t.status === 'completed');
    expect(task.result.isError).toBe(true);
    expect(task.result.content[0].text).toContain('rejected');
    expect(runsOf(dir, 'publish')).not.toContain('garbage.example');
  });

  it('an approval sent twice at once, and replayed after, runs the tool exactly once', async () => {
    const { taskId, key } = await waitingPublish('once.example');
    const answers = await Promise.all([
      update(taskId, { [key]: APPROVE }),
      update(taskId, { [key]: APPROVE }),
    ]);
    for (const answer of answers) expect(answer.error).toBeUndefined();
    const task = await until(taskId, (t) => t.status === 'completed');
    expect(task.result.content[0].text).toBe('Published once.example.');
    const replay = await update(taskId, { [key]: APPROVE });
    expect(replay.result._meta['fino/ignoredInputResponses']).toEqual([key]);
    expect(runsOf(dir, 'publish').filter((site) => site === 'once.example')).toHaveLength(1);
  });

  it('a missing or malformed inputResponses, an unknown task, or no opt-in is a clear error', async () => {
    const { taskId } = await waitingPublish('malformed.example');
    const missing = await modernRequest(url, 'tasks/update', { taskId }, OPTED_IN);
    expect(missing.error?.code).toBe(-32602);
    expect(missing.error?.message).toContain('inputResponses');
    const tooMany = await update(
      taskId,
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, APPROVE])),
    );
    expect(tooMany.error?.code).toBe(-32602);
    expect(tooMany.error?.message).toContain('at most 20');
    const unknown = await update('no-such-task', {});
    expect(unknown.error?.code).toBe(-32602);
    const notOptedIn = await modernRequest(url, 'tasks/update', { taskId, inputResponses: {} });
    expect(notOptedIn.error?.code).toBe(-32021);
    expect((await get(taskId)).status).toBe('input_required');
  });
});
