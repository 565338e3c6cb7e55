import { describe, expect, it, vi } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { memoryStore, session } from '../../src/ai/session/index.ts';
import { sessionStores, withStore } from './session-stores.ts';

const engines = sessionStores('session-stores-test');

describe('sessionStores', () => {
  it('opens a new, empty store each time: memory, and a SQLite file of its own', async () => {
    for (const open of [engines.memory, engines.sqlite]) {
      const first = (await open())!;
      const second = (await open())!;
      try {
        await session({ store: first, agent: agent({ model: scriptedModel(['done']) }) }).start(
          'go',
        );
        expect(await first.list()).toHaveLength(1);
        expect(await second.list()).toEqual([]);
      } finally {
        await first.close();
        await second.close();
      }
    }
  });
});

describe('withStore', () => {
  it('runs the body on the store and closes it, even when the body throws', async () => {
    const store = memoryStore();
    const close = vi.spyOn(store, 'close');
    const skip = vi.fn();
    await expect(
      withStore(
        async () => store,
        async (given) => {
          expect(given).toBe(store);
          throw new Error('the body failed');
        },
      )({ skip }),
    ).rejects.toThrow('the body failed');
    expect(close).toHaveBeenCalledTimes(1);
    expect(skip).not.toHaveBeenCalled();
  });

  it('skips the test, without running the body, when there is no store', async () => {
    const skip = vi.fn();
    const body = vi.fn();
    await withStore(async () => undefined, body)({ skip });
    expect(skip).toHaveBeenCalledTimes(1);
    expect(body).not.toHaveBeenCalled();
  });
});
