import { describe, expect, it } from 'vitest';
import { forEachLimited } from '../../../src/ai/agent/for-each-limited.ts';

describe('forEachLimited', () => {
  it('never runs more than the limit at once and handles every item', async () => {
    let active = 0;
    let peak = 0;
    const done: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setImmediate(resolve));
      active -= 1;
      done.push(n);
    });
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('rejects with the first failure and starts no further item', async () => {
    const started: number[] = [];
    const run = forEachLimited([1, 2, 3], 1, async (n) => {
      started.push(n);
      if (n === 2) throw new Error('item 2 failed');
    });
    await expect(run).rejects.toThrow('item 2 failed');
    expect(started).toEqual([1, 2]);
  });
});
