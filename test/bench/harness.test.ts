import { describe, expect, it } from 'vitest';
import { compare, formatTable } from '../../bench/harness.ts';

describe('bench harness', () => {
  it('measures every peer and reports ratios to the baseline', async () => {
    const slow = () => {
      let s = 0;
      for (let i = 0; i < 20_000; i++) s += Math.sqrt(i);
      return s;
    };
    const fast = () => 1;
    const results = await compare(
      'slow vs fast',
      { slow, fast },
      { rounds: 1, timeMs: 30, print: false },
    );
    expect(results.map((r) => r.name)).toEqual(['slow', 'fast']);
    expect(results[0].ratio).toBe(1);
    expect(results[1].ratio).toBeLessThan(1);
    expect(results.every((r) => r.nsPerOp > 0)).toBe(true);
  });

  it('refuses a baseline that is not a peer', async () => {
    await expect(compare('x', { a: () => 1 }, { baseline: 'b', print: false })).rejects.toThrow(
      'baseline "b" is not one of a',
    );
  });

  it('renders a Markdown table', () => {
    const table = formatTable('t', [{ name: 'a', nsPerOp: 1500, p99Ns: 3000, ratio: 1 }], 'a');
    expect(table).toContain('| a | 1.50 µs | 3.00 µs | 1.00 |');
  });
});
