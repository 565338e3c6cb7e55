import { describe, expect, it } from 'vitest';
import { type Agent, agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { session } from '../../../src/ai/session/index.ts';
import { sessionStores, withStore } from '../../helpers/session-stores.ts';

const stores = sessionStores('thread-handoff');

/** triage hands off to refunds, refunds back to triage; each model answers from its script. */
function desk(triageTurns: any[], refundsTurns: any[]) {
  const triageModel = scriptedModel(triageTurns);
  const refundsModel = scriptedModel(refundsTurns);
  const triage: Agent = agent({ name: 'triage', model: triageModel, handoffs: () => [refunds] });
  const refunds: Agent = agent({ name: 'refunds', model: refundsModel, handoffs: [triage] });
  return { triage, triageModel, refundsModel };
}

const transfer = (to: string) => ({ toolCalls: [{ name: `transfer_to_${to}`, args: {} }] });

describe.each(Object.entries(stores))('a thread remembers its active agent (%s)', (_name, open) => {
  it(
    'the next run of the thread starts with the agent the last one finished with',
    withStore(open, async (store) => {
      const { triage, refundsModel, triageModel } = desk(
        [transfer('refunds'), 'Triage: anything else?'],
        ['Which order?', transfer('triage')],
      );
      const runs = session({ store, agent: triage });
      const first = await runs.start('I want a refund', { threadId: 't1' });
      expect(first).toMatchObject({ status: 'done', text: 'Which order?' });
      const second = await runs.start('Order 7', { threadId: 't1' });
      // refunds answered the second turn first (and handed back), not triage.
      expect(refundsModel.requests).toHaveLength(2);
      expect(refundsModel.requests[1].messages.at(-1)).toEqual({
        role: 'user',
        content: 'Order 7',
      });
      expect(second).toMatchObject({ status: 'done', text: 'Triage: anything else?' });
      expect(triageModel.requests).toHaveLength(2);
      // Back at the root: the third run starts with triage again.
      const third = desk(['Triage again.'], []);
      const again = await session({ store, agent: third.triage }).start('Hi', { threadId: 't1' });
      expect(again).toMatchObject({ status: 'done', text: 'Triage again.' });
    }),
  );
});

describe('a thread whose stored agent the graph no longer has', () => {
  it(
    'fails its next run with an error naming the agent, instead of silently going back to the root',
    withStore(stores.memory, async (store) => {
      const { triage } = desk([transfer('refunds')], ['Which order?']);
      await session({ store, agent: triage }).start('refund', { threadId: 't2' });
      const renamed = agent({ name: 'triage', model: scriptedModel(['Hi']) });
      const next = await session({ store, agent: renamed }).start('hello', { threadId: 't2' });
      expect(next).toMatchObject({
        status: 'error',
        code: 'INVALID_ARGUMENT',
        error:
          'run options.agent: "refunds" is not an agent of the handoff graph of "triage" (agents: triage)',
      });
    }),
  );
});
