/**
 * A change's effect on validation speed, measured in one process: fino as of an earlier
 * commit (its `src` extracted to `.fino/before/src`) and fino now, interleaved with Ajv on
 * the real-world set, so the load of a shared machine hits all three alike. Prints each
 * schema's ratio to Ajv for both and the medians. Run:
 *
 * ```sh
 * mkdir -p .fino/before && git archive <commit> src | tar -x -C .fino/before
 * BENCH_CLOCK=cpu node --single-threaded --import tsx bench/validate/before-after.ts [valid|invalid]
 * ```
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compile as now } from '../../src/validate/index.ts';
import { compareBatched, loadLine } from '../harness.ts';
import { REAL_WORLD } from './real-world.ts';

type Compile = typeof now;
const before: Compile = (
  await import(new URL('../../.fino/before/src/validate/index.ts', import.meta.url).href)
).compile;

const which = process.argv[2] === 'invalid' ? 'invalid' : 'valid';
const ajv = new Ajv2020({ allErrors: which === 'invalid', strict: false });
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ratios: Record<string, number[]> = {};
const startLoad = loadLine();
console.log(
  `| schema | Ajv ns | ${which === 'valid' ? 'is before | is now | ' : ''}safeParse before | safeParse now |`,
);
console.log(`|---|---:|${which === 'valid' ? '---:|---:|' : ''}---:|---:|`);
for (const { name, schema, valid, invalid } of REAL_WORLD) {
  const data = which === 'valid' ? valid : invalid;
  const [old, fresh, peer] = [before(schema), now(schema), ajv.compile(schema)];
  const peers: Record<string, () => unknown> = { ajv: () => peer(data) };
  if (which === 'valid') {
    peers['is before'] = () => old.is(data);
    peers['is now'] = () => fresh.is(data);
  }
  peers['safeParse before'] = () => old.safeParse(data).success;
  peers['safeParse now'] = () => fresh.safeParse(data).success;
  const [base, ...rest] = await compareBatched(which, peers, { samples: 15, print: false });
  const cells = rest.map((result) => {
    const ratio = result.medianNs / base.medianNs;
    ratios[result.name] ??= [];
    ratios[result.name].push(ratio);
    return `${ratio.toFixed(2)}×`;
  });
  console.log(`| ${name} | ${base.medianNs.toFixed(0)} | ${cells.join(' | ')} |`);
}
console.log(
  `| **median** | | ${Object.values(ratios)
    .map((values) => `**${median(values).toFixed(2)}×**`)
    .join(' | ')} |`,
);
console.log(
  `\n${which} data; clock: ${process.env.BENCH_CLOCK === 'cpu' ? 'CPU time' : 'wall time'}; ${startLoad} at start, ${loadLine()} at end`,
);
