/** A thread keeps its latest summary: stored when a run makes one, passed to the next start. */
import { describe, expect, it } from 'vitest';
import { agent, summarize } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { memoryStore, session } from '../../../src/ai/session/index.ts';

describe('thread summaries', () => {
  it('stores the summary a run wrote with the thread position it covers, and starts the next run from there with it', async () => {
    const store = memoryStore();
    const summarizer = scriptedModel(Array.from({ length: 10 }, (_, i) => `SUMMARY ${i}`));
    const model = scriptedModel(Array.from({ length: 60 }, (_, i) => `answer ${i}`));
    const runs = session({
      store,
      agent: agent({
        model,
        context: { maxTokens: 1_500, strategy: summarize({ model: summarizer, keepLast: 4 }) },
      }),
    });
    let turn = 0;
    const ask = () => runs.start(`q${turn++}: ${'details '.repeat(40)}`, { threadId: 'week' });
    while (summarizer.requests.length === 0 && turn < 40) await ask();
    expect(summarizer.requests).toHaveLength(1);
    const summarized = await runs.thread('week');
    expect(summarized?.summary?.text).toBe('SUMMARY 0');
    const through = summarized!.summary!.through;
    // It stands for the thread's messages before `through`: the summarising request
    // (the run's last) was sent the thread from that position on.
    const at = async (position: number) =>
      (await runs.thread('week', { before: position + 1, limit: 1 }))!.messages[0];
    expect(through).toBeGreaterThan(0);
    expect(model.requests.at(-1)?.messages[0]).toEqual((await at(through)).message);
    // The whole history stays stored.
    expect(summarized?.length).toBe(turn * 2);

    const requests = model.requests.length;
    await ask();
    const sent = model.requests[requests];
    expect(sent.system).toContain('SUMMARY 0');
    // Loaded from the summary's position on: the messages it stands for are not sent again.
    expect(sent.messages[0]).toEqual((await at(through)).message);
    expect(summarizer.requests).toHaveLength(1); // no new summary while the rest fits
    expect((await runs.thread('week'))?.summary).toEqual({ text: 'SUMMARY 0', through });
    await store.close();
  });
});
