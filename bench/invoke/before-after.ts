/**
 * A change's effect on `invoke()`, measured in one process: fino as of an earlier commit
 * (its `src` extracted to `.fino/before/src`) and fino now, interleaved in batches with the
 * synchronous floor of `index.ts` (Ajv, a direct call in try/catch), so the load of a
 * shared machine hits all three alike. Run:
 *
 * ```sh
 * mkdir -p .fino/before && git archive <commit> src | tar -x -C .fino/before
 * BENCH_CLOCK=cpu node --single-threaded --import tsx bench/invoke/before-after.ts
 * ```
 */
import { Ajv } from 'ajv';
import { tool as now } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import { compareBatched } from '../harness.ts';

const before: typeof now = (
  await import(new URL('../../.fino/before/src/ai/tool/index.ts', import.meta.url).href)
).tool;

const add = ({ a, b }: { a: number; b: number }) => String(a + b);
const args = { a: 2, b: 3 };
const options = {
  name: 'add',
  description: 'Add two numbers.',
  parameters: v.object({ a: v.number(), b: v.number() }),
  execute: add,
};
const [old, fresh] = [before(options), now(options)];
const validate = new Ajv().compile<{ a: number; b: number }>(fresh.parameters);
const syncFloor = (input: unknown) => {
  if (!validate(input)) return { content: JSON.stringify(validate.errors), isError: true };
  try {
    return { content: add(input) };
  } catch (error) {
    return { content: (error as Error).message, isError: true };
  }
};
for (const answer of [syncFloor(args), await old.invoke(args), await fresh.invoke(args)])
  if (answer.content !== '5') throw new Error(`a peer answered ${JSON.stringify(answer)}`);

await compareBatched('invoke() before and after, in batches', {
  'sync floor': () => syncFloor(args),
  'invoke() before': () => old.invoke(args),
  'invoke() now': () => fresh.invoke(args),
});
