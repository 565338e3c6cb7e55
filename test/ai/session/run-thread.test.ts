import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { memoryStore, runThread, SessionError, session } from '../../../src/ai/session/index.ts';

describe('runThread', () => {
  it("answers the newest messages of a run's thread, and nothing for a run without one", async () => {
    const model = scriptedModel(['Noted.', 'Friday.', 'Alone.']);
    const runs = session({ store: memoryStore(), agent: agent({ model }) });
    await runs.start('My order is o-17.', { threadId: 'customer-9' });
    const second = await runs.start('When does it ship?', { threadId: 'customer-9' });
    const page = await runThread(runs, second, { limit: 2 });
    if (!page || !('messages' in page)) throw new Error(`expected a page, received ${page}`);
    expect([page.length, page.messages.map((m) => m.message.role)]).toEqual([
      4,
      ['user', 'assistant'],
    ]);
    expect(page.messages[0].message.content).toBe('When does it ship?');
    expect(await runThread(runs, await runs.start('No thread.'), { limit: 2 })).toBeUndefined();
  });

  it('says why a thread the store refuses cannot be read, and throws anything else', async () => {
    const refusing = {
      thread: async () => {
        throw new SessionError('CORRUPT_RUN', 'thread "t" cannot be read');
      },
    };
    expect(await runThread(refusing, { threadId: 't' }, { limit: 5 })).toEqual({
      threadId: 't',
      error: 'thread "t" cannot be read',
    });
    const broken = {
      thread: async () => {
        throw new TypeError('driver bug');
      },
    };
    await expect(runThread(broken, { threadId: 't' }, { limit: 5 })).rejects.toThrow('driver bug');
  });
});
