/** `ctx.elicit()` of one run of a durable task's tool: recorded answers in order, then parking. */
import { describe, expect, it } from 'vitest';
import {
  combinedDecision,
  elicitAnswers,
  elicitationDecision,
  MAX_TASK_ELICITATIONS,
  taskElicitation,
} from '../../../../../src/ai/mcp/server/tasks/task-elicitation.ts';
import type { ElicitRequest } from '../../../../../src/task/index.ts';

const FORM: ElicitRequest = {
  message: 'How many?',
  schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
};

describe('taskElicitation', () => {
  it('answers from the recorded answers in order, a recorded error as a rejection, then parks', async () => {
    const run = taskElicitation([
      { action: 'accept', content: { n: 2 } },
      { error: 'ctx.elicit: bad answer' },
    ]);
    await expect(run.elicit(FORM)).resolves.toEqual({ action: 'accept', content: { n: 2 } });
    await expect(run.elicit(FORM)).rejects.toThrow('ctx.elicit: bad answer');
    expect(run.parked()).toEqual([]);
    await expect(run.elicit(FORM)).rejects.toMatchObject({ name: 'SuspendSignal' });
    expect(run.parked()).toEqual([
      {
        elicit: FORM,
        answers: [{ action: 'accept', content: { n: 2 } }, { error: 'ctx.elicit: bad answer' }],
      },
    ]);
  });

  it('parks on every form asked at once, each with the answers so far', async () => {
    const run = taskElicitation([{ action: 'decline' }]);
    const second = { ...FORM, message: 'And how many more?' };
    const asked = await Promise.allSettled([
      run.elicit(FORM),
      run.elicit(FORM),
      run.elicit(second),
    ]);
    expect(asked.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(run.parked()).toEqual([
      { elicit: FORM, answers: [{ action: 'decline' }] },
      { elicit: second, answers: [{ action: 'decline' }] },
    ]);
  });

  it('checks the form before parking', async () => {
    const run = taskElicitation([]);
    await expect(run.elicit({ message: '', schema: FORM.schema })).rejects.toThrow(
      'ctx.elicit: message: expected a non-empty string, received string ""',
    );
    expect(run.parked()).toEqual([]);
  });

  it(`refuses form ${MAX_TASK_ELICITATIONS + 1} of one task instead of parking again`, async () => {
    const answers = Array.from({ length: MAX_TASK_ELICITATIONS }, () => ({
      action: 'decline' as const,
    }));
    const run = taskElicitation(answers);
    for (let i = 0; i < MAX_TASK_ELICITATIONS; i++) await run.elicit(FORM);
    await expect(run.elicit(FORM)).rejects.toThrow(
      `ctx.elicit: a task may ask at most ${MAX_TASK_ELICITATIONS} forms; this is form ${MAX_TASK_ELICITATIONS + 1}`,
    );
    expect(run.parked()).toEqual([]);
  });
});

describe('elicitationDecision', () => {
  const parked = { elicit: FORM, answers: [] };
  it('records a fitting answer, and a misfit one as the error ctx.elicit rejects with', () => {
    const good = elicitationDecision(parked, {
      result: { action: 'accept', content: { n: 3 } },
    });
    expect(elicitAnswers((good as { resume: unknown }).resume)).toEqual([
      { action: 'accept', content: { n: 3 } },
    ]);
    const bad = elicitationDecision(parked, {
      result: { action: 'accept', content: { n: 'three' } },
    });
    const [recorded] = elicitAnswers((bad as { resume: unknown }).resume) ?? [];
    expect(recorded).toMatchObject({
      error: expect.stringContaining(
        'ctx.elicit: the answer to "How many?" does not match the form',
      ),
    });
  });

  it('takes another resume value for no answers', () => {
    expect(elicitAnswers('Ada')).toBeUndefined();
    expect(elicitAnswers({ answer: 1 })).toBeUndefined();
  });
});

describe('combinedDecision', () => {
  const base = [{ action: 'decline' as const }];
  const answered = (n: number) =>
    elicitationDecision(
      { elicit: FORM, answers: base },
      {
        result: { action: 'accept', content: { n } },
      },
    );
  const pending = (decision: unknown) => ({ call: {} as never, tokenHash: 'h', decision }) as never;

  it('merges the answers of forms asked at once, in the order asked', () => {
    const merged = combinedDecision([pending(answered(1)), pending(answered(2))]);
    expect(elicitAnswers((merged as { resume: unknown }).resume)).toEqual([
      { action: 'decline' },
      { action: 'accept', content: { n: 1 } },
      { action: 'accept', content: { n: 2 } },
    ]);
  });

  it('is the first rejection when one was rejected, and nothing for a single call', () => {
    expect(combinedDecision([pending(answered(1)), pending({ reject: 'no' })])).toEqual({
      reject: 'no',
    });
    expect(combinedDecision([pending(answered(1))])).toBeUndefined();
  });
});
