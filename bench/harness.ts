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
import { availableParallelism, loadavg } from 'node:os';
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
  /**
   * `'wall'` (the default, or `BENCH_CLOCK=wall`) or `'cpu'` (`BENCH_CLOCK=cpu`): the
   * process's CPU time, user + system, so waiting for a core on an overloaded machine
   * does not count. Run CPU-clock measurements with `node --single-threaded`: the CPU
   * time of V8's background compiler and GC threads would otherwise count too.
   */
  clock?: 'wall' | 'cpu';
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

/** The 1, 5 and 15 minute load averages and the core count, as printed beside every result. */
export function loadLine(): string {
  const [one, five, fifteen] = loadavg();
  return `load average ${one.toFixed(2)} / ${five.toFixed(2)} / ${fifteen.toFixed(2)} (1 / 5 / 15 min), ${availableParallelism()} cores`;
}

/** The `q` quantile (0…1) of `values`, interpolated between neighbours. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error('quantile: expected at least one value');
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/** One peer's result from {@link compareBatched}. */
export interface BatchedResult {
  name: string;
  /** Median over samples of the time per operation, in nanoseconds. */
  medianNs: number;
  /** 25th and 75th percentiles over samples of the time per operation, in nanoseconds. */
  p25Ns: number;
  p75Ns: number;
  /** The fastest and slowest samples' time per operation, in nanoseconds. */
  minNs: number;
  maxNs: number;
  /** `medianNs / baseline.medianNs`: below 1 is faster than the baseline. */
  ratio: number;
  /** Operations per sample (the batch size). */
  batch: number;
}

export interface BatchedOptions {
  /** The peer that ratios are relative to; the first peer when absent. */
  baseline?: string;
  /** Samples per peer (default 21, or `BENCH_SAMPLES`). */
  samples?: number;
  /** Target milliseconds per sample; the batch size is calibrated to it (default 20, or `BENCH_SAMPLE_MS`). */
  sampleMs?: number;
  /** Milliseconds each peer runs before timing starts (default 300, or `BENCH_WARMUP_MS`). */
  warmupMs?: number;
  /**
   * `'wall'` (the default, or `BENCH_CLOCK=wall`) or `'cpu'` (`BENCH_CLOCK=cpu`): the
   * process's CPU time, user + system, so waiting for a core on an overloaded machine
   * does not count. Run CPU-clock measurements with `node --single-threaded`: the CPU
   * time of V8's background compiler and GC threads would otherwise count too.
   */
  clock?: 'wall' | 'cpu';
  /** Print the table (default true). */
  print?: boolean;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null &&
  (typeof value === 'object' || typeof value === 'function') &&
  typeof (value as { then?: unknown }).then === 'function';

/** Nanoseconds on `clock`: wall time, or the process's CPU time (user + system). */
function now(clock: 'wall' | 'cpu'): number {
  if (clock === 'wall') return Number(process.hrtime.bigint());
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

/** Keeps every result alive, so that no call can be optimised away. */
let sink: unknown;

/**
 * Runs `fn` `n` times in a row, awaiting each result that is a promise before the next
 * call (as a caller does); returns the nanoseconds taken on `clock`.
 */
async function timeBatch(fn: PeerFn, n: number, clock: 'wall' | 'cpu'): Promise<number> {
  const start = now(clock);
  for (let i = 0; i < n; i++) {
    sink = fn();
    if (isThenable(sink)) sink = await sink;
  }
  return now(clock) - start;
}

/**
 * Measures peers in batches: every peer is warmed up first, then each sample times a
 * batch of calls (sized so a sample takes about `sampleMs`), so the clock's own cost is
 * spread over many calls. Samples are interleaved, the peer order rotating every sample,
 * and the median with the 25th–75th percentiles is reported, with the load average.
 *
 * @example
 * ```ts
 * import { compareBatched } from './harness.ts';
 *
 * await compareBatched('sum 1..100', {
 *   loop: () => { let s = 0; for (let i = 1; i <= 100; i++) s += i; return s; },
 *   formula: () => (100 * 101) / 2,
 * }, { baseline: 'loop' });
 * ```
 */
export async function compareBatched(
  title: string,
  peers: Record<string, PeerFn>,
  options: BatchedOptions = {},
): Promise<BatchedResult[]> {
  const names = Object.keys(peers);
  if (names.length === 0) throw new Error(`compareBatched(${title}): no peers given`);
  const baseline = options.baseline ?? names[0];
  if (!(baseline in peers)) {
    throw new Error(
      `compareBatched(${title}): baseline "${baseline}" is not one of ${names.join(', ')}`,
    );
  }
  const samples = options.samples ?? Number(process.env.BENCH_SAMPLES ?? 21);
  const sampleMs = options.sampleMs ?? Number(process.env.BENCH_SAMPLE_MS ?? 20);
  const warmupMs = options.warmupMs ?? Number(process.env.BENCH_WARMUP_MS ?? 300);
  const clock = options.clock ?? (process.env.BENCH_CLOCK === 'cpu' ? 'cpu' : 'wall');

  // Warm every peer, and size its batch from how fast it ran once warm.
  const batch = new Map<string, number>();
  for (const name of names) {
    let calls = 0;
    let spent = 0;
    for (let n = 1; spent < warmupMs * 1e6; n = Math.min(n * 2, 1 << 16)) {
      spent += await timeBatch(peers[name], n, clock);
      calls += n;
    }
    // Size from the fastest of three batches: a pause from elsewhere only makes one slower.
    const n = Math.max(1, calls >> 3);
    let perCall = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++)
      perCall = Math.min(perCall, (await timeBatch(peers[name], n, clock)) / n);
    batch.set(name, Math.max(1, Math.round((sampleMs * 1e6) / perCall)));
  }

  const times = new Map<string, number[]>(names.map((n) => [n, []]));
  for (let s = 0; s < samples; s++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(s + i) % names.length];
      const n = batch.get(name)!;
      times.get(name)!.push((await timeBatch(peers[name], n, clock)) / n);
    }
  }

  const base = quantile(times.get(baseline)!, 0.5);
  const results = names.map((name) => {
    const values = times.get(name)!;
    const medianNs = quantile(values, 0.5);
    return {
      name,
      medianNs,
      p25Ns: quantile(values, 0.25),
      p75Ns: quantile(values, 0.75),
      minNs: Math.min(...values),
      maxNs: Math.max(...values),
      ratio: medianNs / base,
      batch: batch.get(name)!,
    };
  });
  if (options.print !== false) console.log(formatBatchedTable(title, results, baseline, clock));
  return results;
}

/** Renders {@link compareBatched} results as a Markdown table with the load average. */
export function formatBatchedTable(
  title: string,
  results: BatchedResult[],
  baseline: string,
  clock: 'wall' | 'cpu' = 'wall',
): string {
  return [
    `### ${title}`,
    '',
    `| peer | median time/op | p25–p75 | calls/sample | × ${baseline} |`,
    '|---|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${formatNs(r.medianNs)} | ${formatNs(r.p25Ns)}–${formatNs(r.p75Ns)} | ${r.batch} | ${r.ratio.toFixed(2)} |`,
    ),
    '',
    `_${clock} clock; ${loadLine()}_`,
    '',
  ].join('\n');
}
