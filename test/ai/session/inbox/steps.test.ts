/** The run page's steps: tokens and cost per step, the run's total, a failed run's code. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inbox, memoryStore, session } from '../../../../src/ai/session/index.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';
import { budgetAgent } from '../fixtures/budget-agent.ts';
import { browserLike } from './fixtures.ts';

const dir = tempDir('inbox-steps');

describe('inbox run page: steps', () => {
  it('shows each step with its tool calls, tokens and cost, the total, and the error code', async () => {
    const runs = session({
      store: memoryStore(),
      agent: budgetAgent(join(dir, 'log.jsonl'), { maxTokens: 3000 }),
    });
    const stopped = await runs.start('Do the work', { runId: 'run-steps' });
    expect(stopped).toMatchObject({ status: 'error', code: 'BUDGET_EXCEEDED' });
    const { get } = browserLike(inbox({ session: runs }), 'http://127.0.0.1:9999');
    const text = await (await get('/runs/run-steps')).text();
    expect(text).toContain('<h2>Error <code>BUDGET_EXCEEDED</code></h2>');
    expect(text).toContain('<h2>Steps</h2>');
    // step 0: 1237 in (333 cached), 91 out at $0.15 / $0.075 cached / $0.60 per million
    expect(text).toContain(
      '<tr><td>0</td><td>work</td><td>1237 in (333 cached), 91 out, 1328 tokens, $0.000215175</td></tr>',
    );
    expect(text).toMatch(
      /<tr><td>1<\/td><td>work<\/td><td>1811 in \(1001 cached\), 77 out, 1888 tokens, \$0\.\d+<\/td><\/tr>/,
    );
    expect(text).toMatch(/<li>usage 3048 in \(1334 cached\), 168 out, 3216 tokens, \$0\.\d+<\/li>/);
  });
});
