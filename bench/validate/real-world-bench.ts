/**
 * fino against Ajv 8 on real MCP and OpenAI-strict tool schemas (./real-world.ts), timed in
 * batches (./batched.ts), formats off for both. Rows per schema: valid arguments (fino
 * `safeParse` and `is` vs Ajv `allErrors: false`), invalid arguments (fino `safeParse`,
 * which builds repair messages, vs Ajv `allErrors: true`). Prints per-schema ratios and their
 * median. Run: `npx tsx bench/validate/real-world-bench.ts`.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compile } from '../../src/validate/index.ts';
import { load, timeBatched } from './batched.ts';
import { REAL_WORLD } from './real-world.ts';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const fast = new Ajv2020({ allErrors: false, strict: false });
const all = new Ajv2020({ allErrors: true, strict: false });
const ratios = { valid: [] as number[], is: [] as number[], invalid: [] as number[] };
// Ratios of the fastest samples: on a loaded machine the minimum is the least disturbed.
const best = { valid: [] as number[], is: [] as number[], invalid: [] as number[] };
const rows: string[] = [];
const startLoad = load();

for (const { name, schema, valid, invalid } of REAL_WORLD) {
  const fino = compile(schema);
  const ajvFast = fast.compile(schema);
  const ajvAll = all.compile(schema);
  if (!fino.safeParse(valid).success || !fino.is(valid) || !ajvFast(valid))
    throw new Error(`${name}: the valid arguments do not pass`);
  if (fino.safeParse(invalid).success || fino.is(invalid) || ajvAll(invalid))
    throw new Error(`${name}: the invalid arguments pass`);
  const v = timeBatched({
    ajv: () => ajvFast(valid),
    safeParse: () => fino.safeParse(valid).success,
    is: () => fino.is(valid),
  });
  const i = timeBatched({
    ajvAll: () => ajvAll(invalid),
    safeParse: () => fino.safeParse(invalid).success,
  });
  const [ajvV, spV, isV] = v;
  const [ajvI, spI] = i;
  ratios.valid.push(spV.median / ajvV.median);
  ratios.is.push(isV.median / ajvV.median);
  ratios.invalid.push(spI.median / ajvI.median);
  best.valid.push(spV.min / ajvV.min);
  best.is.push(isV.min / ajvV.min);
  best.invalid.push(spI.min / ajvI.min);
  const fmt = (r: { median: number; min: number; max: number }) =>
    `${r.median.toFixed(0)} (${r.min.toFixed(0)}–${r.max.toFixed(0)})`;
  rows.push(
    `| ${name} | ${fmt(ajvV)} | ${fmt(spV)} | ${(spV.median / ajvV.median).toFixed(2)}× | ${fmt(isV)} | ${(isV.median / ajvV.median).toFixed(2)}× | ${fmt(ajvI)} | ${fmt(spI)} | ${(spI.median / ajvI.median).toFixed(2)}× |`,
  );
}

console.log(
  '\n### Real-world tool schemas, ns per call, median (min–max), formats off\n\n' +
    '| schema | Ajv valid | fino safeParse valid | ratio | fino is valid | ratio | Ajv allErrors invalid | fino safeParse invalid | ratio |\n' +
    '|---|---|---|---|---|---|---|---|---|',
);
for (const row of rows) console.log(row);
console.log(
  `\nmedian ratios: valid safeParse ${median(ratios.valid).toFixed(2)}× · is ${median(ratios.is).toFixed(2)}× · invalid ${median(ratios.invalid).toFixed(2)}× (targets 1.5 / 1.2 / 5)`,
);
console.log(
  `median of the min-sample ratios: valid safeParse ${median(best.valid).toFixed(2)}× · is ${median(best.is).toFixed(2)}× · invalid ${median(best.invalid).toFixed(2)}×`,
);
console.log(`load average (1 min): ${startLoad} at start, ${load()} at end`);
