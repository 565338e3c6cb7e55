/**
 * Start-up time of the `fino` binary, as ratios to plain Node in the same run:
 *
 * - `fino --version` against `node -e 0` (budget: 2.5×): loads no command;
 * - `fino tools tools.ts` against `node --import tsx tools.ts` (budget: 1.3×): loads one
 *   command, and TypeScript loading only because the module is TypeScript.
 *
 * Each command runs as a whole process; the peers alternate (A, B, A, B, …) after a
 * warm-up, and the medians of the wall times are compared, so load from elsewhere on
 * this shared machine hits both sides alike. `npm run build` first (the binary runs
 * dist/). Run with `npm run bench -- cli`; `BENCH_RUNS` sets the runs (default 15).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const fino = join(root, 'bin/fino.js');
const tools = join(import.meta.dirname, 'tools.ts');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 2;

if (!existsSync(join(root, 'dist/cli/index.js'))) {
  throw new Error('dist/ is missing: run "npm run build" first');
}

/** Runs `node <args>` once and returns its wall time in milliseconds. */
function time(args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  return ms;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

interface Pair {
  title: string;
  command: string[];
  baseline: string[];
  budget: number;
}

const pairs: Pair[] = [
  {
    title: 'fino --version vs node -e 0',
    command: [fino, '--version'],
    baseline: ['-e', '0'],
    budget: 2.5,
  },
  {
    title: 'fino tools tools.ts vs node --import tsx tools.ts',
    command: [fino, 'tools', tools],
    baseline: ['--import', 'tsx', tools],
    budget: 1.3,
  },
];

console.log(
  `load average before: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
console.log(`${RUNS} runs each after ${WARMUP} warm-up runs, alternating; medians of wall time\n`);
console.log('| comparison | fino (ms) | baseline (ms) | ratio | budget |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const pair of pairs) {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const a = time(pair.command);
    const b = time(pair.baseline);
    if (i >= WARMUP) {
      ours.push(a);
      theirs.push(b);
    }
  }
  const ratio = median(ours) / median(theirs);
  console.log(
    `| ${pair.title} | ${median(ours).toFixed(1)} | ${median(theirs).toFixed(1)} | ${ratio.toFixed(2)}× | ≤ ${pair.budget}× ${ratio <= pair.budget ? '✓' : '✗'} |`,
  );
}
console.log(
  `\nload average after: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
