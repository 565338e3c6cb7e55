/**
 * Hostile final answers to an agent with an `output` schema: nothing the model writes
 * may amplify into a huge repair message or error, pollute a prototype, or loop.
 */
import { describe, expect, it } from 'vitest';
import { AgentOutputError, agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { v } from '../../src/validate/index.ts';

const schema = v.object({ items: v.array(v.number()) });

describe('hostile structured answers', () => {
  it('lists at most 20 issues in the repair message and the error, however many there are', async () => {
    const bad = JSON.stringify({ items: Array.from({ length: 5000 }, () => 'x') });
    const model = scriptedModel([bad, bad]);
    const failure = await agent({ model, output: schema })
      .generate('?')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AgentOutputError);
    const repair = model.requests[1].messages.at(-1)!.content as string;
    expect(repair).toContain('… and 4980 more issues');
    expect(repair.split('\n').length).toBeLessThan(30);
    expect((failure as AgentOutputError).issues.length).toBeLessThan(2000);
  });

  it('spends exactly one repair turn: a model that never complies costs two requests', async () => {
    const model = scriptedModel(['[]', '[]', '[]']);
    await expect(agent({ model, output: schema }).generate('?')).rejects.toThrow(AgentOutputError);
    expect(model.requests).toHaveLength(2);
  });

  it('does not pollute prototypes with a __proto__ key in the answer', async () => {
    const model = scriptedModel(['{"items":[1],"__proto__":{"polluted":true}}']);
    const result = await agent({ model, output: schema }).generate('?');
    expect(result.status === 'done' && result.output).toMatchObject({ items: [1] });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
