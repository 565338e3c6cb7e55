/**
 * Batched timing for functions that take nanoseconds: each sample runs a peer `batch`
 * times in a loop and divides, so the timer's own cost (tens of ns) does not squeeze the
 * ratios toward 1. Peers are warmed first, then sampled interleaved (A, B, C, A, B, C, …),
 * so a burst of load from other processes hits every peer alike. Reports the median and
 * the spread (min–max of the samples) per peer, and the load average while measuring.
 *
 * The clock is wall time, or with `BENCH_CLOCK=cpu` the process's CPU time (user + system,
 * `process.cpuUsage()`): on a shared, overloaded machine a batch's wall time also counts
 * the time the process waited for a core. Run CPU-clock measurements with
 * `node --single-threaded`, so that V8's background compiler and GC threads, whose time
 * the process's CPU time also counts, do their work on the measured thread instead.
 *
 * A peer that returns a promise (`invoke()`) is not awaited call by call, as a caller
 * running them concurrently would not; but the work its promises schedule runs inside
 * the batch: the clock stops only after the batch's last promise has settled, and with
 * it every earlier call's (identical calls settle in order; one microtask hop per batch).
 */
import { loadavg } from 'node:os';

export interface BatchedResult {
  name: string;
  /** Median ns per call over the samples. */
  median: number;
  min: number;
  max: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

let sink: unknown;

const cpuClock = process.env.BENCH_CLOCK === 'cpu';

/** Nanoseconds on the benchmark's clock (see the module comment). */
function now(): number {
  if (!cpuClock) return Number(process.hrtime.bigint());
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

const isThenable = (value: unknown): boolean =>
  value !== null &&
  (typeof value === 'object' || typeof value === 'function') &&
  typeof (value as { then?: unknown }).then === 'function';

/** Runs `run` `n` times; returns the ns taken, including the microtasks the calls left queued. */
async function timeBatch(run: () => unknown, n: number): Promise<number> {
  const start = now();
  for (let i = 0; i < n; i++) sink = run();
  if (isThenable(sink)) await sink;
  return now() - start;
}

/** Times `peers` interleaved in batches; returns ns per call per peer. */
export async function timeBatched(
  peers: Record<string, () => unknown>,
  { samples = Number(process.env.BENCH_SAMPLES ?? 15), batchMs = 20 } = {},
): Promise<BatchedResult[]> {
  const names = Object.keys(peers);
  const batch: Record<string, number> = {};
  for (const name of names) {
    const run = peers[name];
    // Warm up: 20,000 calls or 300 ms, whichever comes first.
    const warmEnd = performance.now() + 300;
    for (let i = 0; i < 20_000 && performance.now() < warmEnd; i++) sink = run();
    if (isThenable(sink)) await sink;
    // Size each peer's batch to take about `batchMs`.
    let n = 1;
    for (;;) {
      const ms = (await timeBatch(run, n)) / 1e6;
      if (ms >= batchMs / 4 || n > 1e8) {
        batch[name] = Math.max(1, Math.round((n * batchMs) / Math.max(ms, 0.001)));
        break;
      }
      n *= 4;
    }
  }
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let s = 0; s < samples; s++) {
    for (const name of names) {
      const n = batch[name];
      times[name].push((await timeBatch(peers[name], n)) / n);
    }
  }
  void sink;
  return names.map((name) => ({
    name,
    median: median(times[name]),
    min: Math.min(...times[name]),
    max: Math.max(...times[name]),
  }));
}

/** Markdown rows of `rows` as ns per call, median (min–max), and the ratio to the first row. */
export function ratioTable(rows: readonly BatchedResult[]): string {
  const [base] = rows;
  return [
    `| peer | median (min–max) | × ${base.name} |`,
    '|---|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.median.toFixed(0)} (${row.min.toFixed(0)}–${row.max.toFixed(0)}) | ${(row.median / base.median).toFixed(2)}× |`,
    ),
  ].join('\n');
}

/** The 1-minute load average, printed beside every table. */
export const load = (): string => loadavg()[0].toFixed(2);
