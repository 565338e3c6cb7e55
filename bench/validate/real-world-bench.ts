/**
 * fino against Ajv 8 on real MCP and OpenAI-strict tool schemas (./real-world.ts), timed in
 * batches (`compareBatched`, ../harness.ts), formats off for both. Rows per schema: valid arguments (fino
 * `safeParse` and `is` vs Ajv `allErrors: false`), invalid arguments (fino `safeParse`,
 * which builds repair messages, vs Ajv `allErrors: true`). Prints per-schema ratios and their
 * median; then compile time for the whole set (new schema objects per batch, so nothing is
 * cached) and, with `--expose-gc`, heap bytes per compiled validator. Run:
 * `node --expose-gc --import tsx bench/validate/real-world-bench.ts`.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compile } from '../../src/validate/index.ts';
import { type BatchedResult, compareBatched, loadLine } from '../harness.ts';
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
const startLoad = loadLine();

for (const { name, schema, valid, invalid } of REAL_WORLD) {
  const fino = compile(schema);
  const ajvFast = fast.compile(schema);
  const ajvAll = all.compile(schema);
  if (!fino.safeParse(valid).success || !fino.is(valid) || !ajvFast(valid))
    throw new Error(`${name}: the valid arguments do not pass`);
  if (fino.safeParse(invalid).success || fino.is(invalid) || ajvAll(invalid))
    throw new Error(`${name}: the invalid arguments pass`);
  const v = await compareBatched(
    `${name}, valid`,
    {
      ajv: () => ajvFast(valid),
      safeParse: () => fino.safeParse(valid).success,
      is: () => fino.is(valid),
    },
    { samples: 15, print: false },
  );
  const i = await compareBatched(
    `${name}, invalid`,
    {
      ajvAll: () => ajvAll(invalid),
      safeParse: () => fino.safeParse(invalid).success,
    },
    { samples: 15, print: false },
  );
  const [ajvV, spV, isV] = v;
  const [ajvI, spI] = i;
  ratios.valid.push(spV.medianNs / ajvV.medianNs);
  ratios.is.push(isV.medianNs / ajvV.medianNs);
  ratios.invalid.push(spI.medianNs / ajvI.medianNs);
  best.valid.push(spV.minNs / ajvV.minNs);
  best.is.push(isV.minNs / ajvV.minNs);
  best.invalid.push(spI.minNs / ajvI.minNs);
  const fmt = (r: BatchedResult) =>
    `${r.medianNs.toFixed(0)} (${r.minNs.toFixed(0)}–${r.maxNs.toFixed(0)})`;
  rows.push(
    `| ${name} | ${fmt(ajvV)} | ${fmt(spV)} | ${(spV.medianNs / ajvV.medianNs).toFixed(2)}× | ${fmt(isV)} | ${(isV.medianNs / ajvV.medianNs).toFixed(2)}× | ${fmt(ajvI)} | ${fmt(spI)} | ${(spI.medianNs / ajvI.medianNs).toFixed(2)}× |`,
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
console.log(`${startLoad} at start, ${loadLine()} at end`);

// Compile: the whole set, new schema objects each time (neither library may cache).
{
  // One Ajv instance (its meta-schema set up once, as in an application); it caches by
  // schema object, so both peers get new clones per batch (the cloning is timed for both).
  const compiler = new Ajv2020({ strict: false });
  const take = () => REAL_WORLD.map((c) => structuredClone(c.schema));
  const [ajv, fino] = await compareBatched(
    'compile',
    {
      ajv: () => {
        for (const schema of take()) compiler.compile(schema);
      },
      fino: () => {
        for (const schema of take()) compile(schema);
      },
    },
    { samples: 7, sampleMs: 50, print: false },
  );
  console.log(
    `\ncompile the ${REAL_WORLD.length} schemas: Ajv ${(ajv.medianNs / 1000).toFixed(0)} µs (${(ajv.minNs / 1000).toFixed(0)}–${(ajv.maxNs / 1000).toFixed(0)}), fino ${(fino.medianNs / 1000).toFixed(1)} µs (${(fino.minNs / 1000).toFixed(1)}–${(fino.maxNs / 1000).toFixed(1)}): fino ${(ajv.medianNs / fino.medianNs).toFixed(1)}× faster (target ≥ 15×)`,
  );
}

// Memory: heap retained per compiled validator, over 100 compilations of the set.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.log('memory: run with node --expose-gc to measure');
} else {
  const retained = (make: (schema: Record<string, unknown>) => unknown): number => {
    const schemas = Array.from({ length: 100 }, () =>
      REAL_WORLD.map((c) => structuredClone(c.schema)),
    ).flat();
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = schemas.map(make);
    gc();
    gc();
    const bytes = (process.memoryUsage().heapUsed - before) / kept.length;
    if (kept.length !== schemas.length) throw new Error('unreachable');
    return bytes;
  };
  const ajvInstance = new Ajv2020({ strict: false });
  const ajvBytes = retained((schema) => ajvInstance.compile(schema));
  const finoBytes = retained((schema) => compile(schema));
  console.log(
    `memory per validator (heap retained, schema objects excluded): Ajv ${(ajvBytes / 1024).toFixed(1)} KiB, fino ${(finoBytes / 1024).toFixed(1)} KiB (target: fino ≤ Ajv)`,
  );
}
