/** The run page shows the run's thread: newest last, long tool results folded, escaped. */
import { describe, expect, it } from 'vitest';
import { agent } from '../../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';
import { inbox, memoryStore, session } from '../../../../src/ai/session/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

const long = `<b>shipped</b> ${'x'.repeat(3000)}`;
const lookup = tool({
  name: 'lookup',
  description: 'Look an order up.',
  parameters: v.object({ orderId: v.string() }),
  execute: () => long,
});

describe('inbox run page', () => {
  it("shows the run's thread, newest last, with long tool results folded and everything escaped", async () => {
    const store = memoryStore();
    const model = scriptedModel([
      { toolCalls: [{ name: 'lookup', args: { orderId: 'o-1' } }] },
      'It shipped.',
      'You are welcome <3',
    ]);
    const runs = session({ store, agent: agent({ model, tools: [lookup] }) });
    await runs.start('Where is o-1?', { threadId: 'customer-9' });
    const second = await runs.start('Thanks', { threadId: 'customer-9' });
    const handle = inbox({ session: runs });
    const page = await (await handle(new Request(`http://127.0.0.1/runs/${second.runId}`))).text();
    const thread = page.slice(page.indexOf('<h2>Thread customer-9</h2>'));
    expect(thread).toContain('6 messages');
    const order = [
      'Where is o-1?',
      '→ lookup',
      '&lt;b&gt;shipped',
      'It shipped.',
      'Thanks',
      'You are welcome &lt;3',
    ];
    const at = order.map((text) => thread.indexOf(text));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at); // newest last
    expect(thread).toMatch(/<details><summary>← &lt;b&gt;shipped&lt;\/b&gt; x+…<\/summary>/);
    expect(page).not.toContain('<b>shipped</b>');
    await store.close();
  });
});
