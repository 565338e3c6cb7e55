/**
 * The benchmark harness: runs named peers on the same job in one process and prints
 * their times as ratios to a baseline. This machine is shared and noisy, so absolute
 * times move between runs; ratios measured side by side hold better.
 *
 * Each peer is measured in several interleaved rounds (peer A, peer B, …, then again),
 * and the median of the rounds' mean times is reported, so a burst of load from
 * elsewhere hits one round of every peer rather than all rounds of one.
 *
 * @example
 * ```ts
 * import { compare } from './harness.ts';
 *
 * await compare('sum 1..100', {
 *   loop: () => { let s = 0; for (let i = 1; i <= 100; i++) s += i; return s; },
 *   formula: () => (100 * 101) / 2,
 * }, { baseline: 'loop' });
 * ```
 */
import { Bench } from 'tinybench';

/** One peer's measured result. */
export interface PeerResult {
  name: string;
  /** Median over rounds of the mean time per operation, in nanoseconds. */
  nsPerOp: number;
  /** Median over rounds of the 99th percentile time per operation, in nanoseconds. */
  p99Ns: number;
  /** `nsPerOp / baseline.nsPerOp`: below 1 is faster than the baseline. */
  ratio: number;
}

export interface CompareOptions {
  /** The peer that ratios are relative to; the first peer when absent. */
  baseline?: string;
  /** Rounds per peer (default 3, or `BENCH_ROUNDS`). */
  rounds?: number;
  /** Milliseconds each peer runs per round (default 300, or `BENCH_TIME_MS`). */
  timeMs?: number;
  /** Print the table (default true). */
  print?: boolean;
}

export type PeerFn = () => unknown;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Measures every peer on one job and returns (and prints) their times and ratios. */
export async function compare(
  title: string,
  peers: Record<string, PeerFn>,
  options: CompareOptions = {},
): Promise<PeerResult[]> {
  const names = Object.keys(peers);
  if (names.length === 0) throw new Error(`compare(${title}): no peers given`);
  const baseline = options.baseline ?? names[0];
  if (!(baseline in peers)) {
    throw new Error(`compare(${title}): baseline "${baseline}" is not one of ${names.join(', ')}`);
  }
  const rounds = options.rounds ?? Number(process.env.BENCH_ROUNDS ?? 3);
  const timeMs = options.timeMs ?? Number(process.env.BENCH_TIME_MS ?? 300);
  const means = new Map<string, number[]>(names.map((n) => [n, []]));
  const p99s = new Map<string, number[]>(names.map((n) => [n, []]));

  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: timeMs, warmup: true, warmupTime: Math.min(100, timeMs) });
    for (const name of names) bench.add(name, peers[name]);
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== 'completed') {
        const reason = 'error' in result ? String(result.error) : result.state;
        throw new Error(`compare(${title}): peer "${task.name}" did not complete: ${reason}`);
      }
      means.get(task.name)!.push(result.latency.mean * 1e6);
      p99s.get(task.name)!.push(result.latency.p99 * 1e6);
    }
  }

  const base = median(means.get(baseline)!);
  const results = names.map((name) => {
    const nsPerOp = median(means.get(name)!);
    return { name, nsPerOp, p99Ns: median(p99s.get(name)!), ratio: nsPerOp / base };
  });
  if (options.print !== false) console.log(formatTable(title, results, baseline));
  return results;
}

const formatNs = (ns: number): string =>
  ns >= 1e6
    ? `${(ns / 1e6).toFixed(2)} ms`
    : ns >= 1e3
      ? `${(ns / 1e3).toFixed(2)} µs`
      : `${ns.toFixed(0)} ns`;

/** Renders results as a Markdown table, ready to paste into `bench/RESULTS.md`. */
export function formatTable(title: string, results: PeerResult[], baseline: string): string {
  const lines = [
    `### ${title}`,
    '',
    `| peer | time/op | p99 | × ${baseline} |`,
    '|---|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${formatNs(r.nsPerOp)} | ${formatNs(r.p99Ns)} | ${r.ratio.toFixed(2)} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
