/**
 * Guardrails of an agent run as `ctx.agent` inside a workflow: a trip fails the agent
 * child with an error naming the guardrail, which the workflow can catch; the model's
 * discarded answer is not asked for again when the workflow goes on.
 */
import { describe, expect, it } from 'vitest';
import { agent, guardrail } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { worker, workflow } from '../../src/workflow/index.ts';
import { memoryStorePerTest } from '../helpers/workflow-store.ts';

const fresh = memoryStorePerTest();

describe('guardrails in a workflow', () => {
  it('ctx.agent fails with the tripped guardrail named; a passing run returns its answer', async () => {
    const store = fresh();
    const model = scriptedModel(['Sure, x = 3.', 'Sacramento.']);
    const homework = guardrail({
      name: 'math_homework',
      check: (input) => ({ tripped: /solve for x/.test(String(input)), output: 'homework' }),
    });
    const support = agent({ model, inputGuardrails: [homework] });
    const flow = workflow({
      id: 'guarded',
      async run(ctx) {
        const answers: string[] = [];
        for (const [id, question] of [
          ['first', 'Can you solve for x: 2x = 6?'],
          ['second', 'Capital of California?'],
        ]) {
          try {
            answers.push((await ctx.agent(support, question, { id })).text);
          } catch (error) {
            answers.push(`refused: ${(error as Error).message}`);
          }
        }
        return answers;
      },
    });
    const w = worker({ store, workflows: [flow] });
    const { runId } = await flow.start(undefined, { store });
    await w.drain();
    const [first, second] = (await flow.result(runId, { store })) as string[];
    expect(first).toMatch(
      /^refused: .*input guardrail "math_homework" tripped \(output: "homework"\)/,
    );
    expect(second).toBe('Sacramento.');
    expect(model.requests).toHaveLength(2); // the discarded answer was asked for once
  });
});
