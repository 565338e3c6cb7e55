import { describe, expect, it } from 'vitest';
import { compareBatched, formatBatchedTable, loadLine, quantile } from '../../bench/harness.ts';

describe('compareBatched', () => {
  it('warms, times every peer in batches and reports medians with their spread', async () => {
    const calls = { slow: 0, fast: 0 };
    const slow = () => {
      calls.slow++;
      let s = 0;
      for (let i = 0; i < 20_000; i++) s += Math.sqrt(i);
      return s;
    };
    const fast = async () => {
      calls.fast++;
      return 1;
    };
    const results = await compareBatched(
      'slow vs fast',
      { slow, fast },
      { samples: 3, sampleMs: 2, warmupMs: 5, print: false },
    );
    expect(results.map((r) => r.name)).toEqual(['slow', 'fast']);
    expect(results[0].ratio).toBe(1);
    expect(results[1].ratio).toBeLessThan(1);
    for (const r of results) {
      expect(r.p25Ns).toBeLessThanOrEqual(r.medianNs);
      expect(r.medianNs).toBeLessThanOrEqual(r.p75Ns);
      expect(r.batch).toBeGreaterThanOrEqual(1);
    }
    // Batches: the fast peer ran many calls per sample, more than the slow one.
    expect(results[1].batch).toBeGreaterThan(results[0].batch);
    expect(calls.fast).toBeGreaterThan(3 * results[1].batch);
  });

  it('awaits each call before the next, so asynchronous work is timed and never piles up', async () => {
    let inFlight = 0;
    let most = 0;
    let finished = 0;
    const slowToSettle = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      finished++;
    };
    await compareBatched(
      'one at a time',
      { slowToSettle },
      { samples: 3, sampleMs: 2, warmupMs: 5, print: false },
    );
    expect(most).toBe(1);
    expect(inFlight).toBe(0);
    expect(finished).toBeGreaterThan(3);
  });

  it('times CPU time with the cpu clock: waiting for a timer costs wall time only', async () => {
    const sleep = () => new Promise((resolve) => setTimeout(resolve, 2));
    const options = { samples: 3, sampleMs: 10, warmupMs: 10, print: false } as const;
    const [wall] = await compareBatched('sleep', { sleep }, { ...options, clock: 'wall' });
    const [cpu] = await compareBatched('sleep', { sleep }, { ...options, clock: 'cpu' });
    // A 2 ms timer can fire a little early by the high-resolution clock (libuv reads the
    // loop's time once per turn, in whole milliseconds): wall time holds most of the wait.
    expect(wall.minNs).toBeGreaterThanOrEqual(1.5e6);
    expect(cpu.medianNs).toBeLessThan(wall.minNs);
    expect(wall.minNs).toBeLessThanOrEqual(wall.medianNs);
    expect(wall.medianNs).toBeLessThanOrEqual(wall.maxNs);
  });

  it('refuses a baseline that is not a peer', async () => {
    await expect(
      compareBatched('x', { a: () => 1 }, { baseline: 'b', print: false }),
    ).rejects.toThrow('baseline "b" is not one of a');
  });

  it('renders a Markdown table with the load average', () => {
    const table = formatBatchedTable(
      't',
      [
        {
          name: 'a',
          medianNs: 1500,
          p25Ns: 1400,
          p75Ns: 1600,
          minNs: 1300,
          maxNs: 1700,
          ratio: 1,
          batch: 100,
        },
      ],
      'a',
    );
    expect(table).toContain('| a | 1.50 µs | 1.40 µs–1.60 µs | 100 | 1.00 |');
    expect(table).toContain('wall clock; load average');
  });

  it('computes interpolated quantiles and names the load average', () => {
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(() => quantile([], 0.5)).toThrow('at least one value');
    expect(loadLine()).toMatch(/^load average \d+\.\d\d \/ .* cores$/);
  });
});
