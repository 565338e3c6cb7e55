/** A remote task's questions on 2026-07-28: who answers them, each key once, within a bound. */
import { describe, expect, it } from 'vitest';
import { ApprovedCalls } from '../../../../src/ai/mcp/client/approved-calls.ts';
import {
  MAX_OPEN_TASK_QUESTIONS,
  TaskQuestions,
  taskQuestionAnswerer,
} from '../../../../src/ai/mcp/client/task-questions.ts';
import { TaskInputs } from '../../../../src/ai/mcp/client/tasks/index.ts';

const form = (message: string, _meta?: Record<string, unknown>) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} }, _meta },
});

describe('taskQuestionAnswerer', () => {
  const routes = () => ({ approved: new ApprovedCalls(), inputs: new TaskInputs() });

  it('approves a call the caller approved, asks onElicit otherwise, declines without it', async () => {
    const r = routes();
    r.approved.begin('publish', { site: 'a' });
    const asked: string[] = [];
    const answer = taskQuestionAnswerer(
      {
        onElicit: (p) => {
          asked.push(p.message);
          return { action: 'decline' };
        },
      },
      r,
    );
    const approval = form('Allow?', {
      'fino/approval': { tool: 'publish', arguments: { site: 'a' } },
    });
    await expect(answer(approval)).resolves.toEqual({
      action: 'accept',
      content: { approve: true },
    });
    await expect(answer(form('Name?'))).resolves.toEqual({ action: 'decline' });
    expect(asked).toEqual(['Name?']);
    await expect(taskQuestionAnswerer({}, routes())(form('Name?'))).resolves.toEqual({
      action: 'decline',
    });
  });

  it('answers no request that is not an elicitation form', () => {
    const answer = taskQuestionAnswerer({ onElicit: () => ({ action: 'cancel' }) }, routes());
    for (const request of [
      null,
      'x',
      { method: 'sampling/createMessage', params: { messages: [] } },
      { method: 'elicitation/create', params: { message: 42 } },
      { method: 'elicitation/create' },
    ]) {
      expect(answer(request)).toBeUndefined();
    }
  });
});

describe('TaskQuestions', () => {
  it('answers each key once while its answer is open, and again only if sending failed', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const questions = new TaskQuestions(
      () => gate.then(() => ({ action: 'accept', content: {} })),
      async (taskId, key) => {
        sent.push(`${taskId}/${key}`);
      },
    );
    questions.answer('t1', { a: form('A?'), b: form('B?') });
    questions.answer('t1', { a: form('A?'), b: form('B?') }); // the next poll shows them again
    release();
    await expect.poll(() => sent.sort()).toEqual(['t1/a', 't1/b']);
  });

  it(`keeps at most ${MAX_OPEN_TASK_QUESTIONS} questions open, whatever a server shows`, () => {
    let asked = 0;
    const questions = new TaskQuestions(
      () => {
        asked++;
        return new Promise(() => {}); // a user who never answers
      },
      async () => undefined,
    );
    const many = Object.fromEntries(
      Array.from({ length: MAX_OPEN_TASK_QUESTIONS + 50 }, (_, i) => [`k${i}`, form('?')]),
    );
    questions.answer('t1', many);
    questions.answer('t2', many);
    expect(asked).toBe(MAX_OPEN_TASK_QUESTIONS);
    questions.answer('t1', 'not requests');
    expect(asked).toBe(MAX_OPEN_TASK_QUESTIONS);
  });
});
