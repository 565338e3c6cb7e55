/**
 * What `isolation: 'worker'` costs per call: a small tool (`add`) invoked in-process and
 * in a pooled worker (structured clone both ways, one message round trip), one call at a
 * time and in batches of 4 concurrent calls (the pool keeps 4 idle workers per module);
 * then the first call of a fresh pool — worker start, loaders and module import — which
 * the pool pays once per concurrent call, not per call.
 */
import { tool } from '../../src/ai/tool/index.ts';
import { compare } from '../harness.ts';
import { execute, inProcess, isolated, parameters, TOOLS_MODULE } from './tools.ts';

const args = { a: 2, b: 3 };
const BATCH = 4;
const batch = (call: () => Promise<unknown>) => () =>
  Promise.all(Array.from({ length: BATCH }, call));

for (const answer of [await inProcess.invoke(args), await isolated.invoke(args)]) {
  if (answer.content !== '5') throw new Error(`a peer answered ${JSON.stringify(answer)}`);
}
await batch(() => isolated.invoke(args))();

await compare(
  'invoke(): one call at a time',
  { 'in-process': () => inProcess.invoke(args), isolated: () => isolated.invoke(args) },
  { baseline: 'in-process' },
);

await compare(
  `invoke(): batches of ${BATCH} concurrent calls`,
  {
    'in-process': batch(() => inProcess.invoke(args)),
    isolated: batch(() => isolated.invoke(args)),
  },
  { baseline: 'in-process' },
);

// A first call in a fresh pool: each sample uses its own limits, hence its own pool.
const samples: number[] = [];
for (let i = 0; i < 7; i++) {
  const fresh = tool({
    name: 'add_isolated',
    parameters,
    isolation: {
      type: 'worker',
      module: TOOLS_MODULE,
      resourceLimits: { maxOldGenerationSizeMb: 256 + i },
    },
    execute,
  });
  const start = performance.now();
  const answer = await fresh.invoke(args);
  samples.push(performance.now() - start);
  if (answer.content !== '5') throw new Error(`a fresh worker answered ${JSON.stringify(answer)}`);
}
samples.sort((a, b) => a - b);
console.log(
  `### first call in a fresh pool (worker start + module import)\n\nmedian of ${samples.length}: ${samples[samples.length >> 1].toFixed(1)} ms (min ${samples[0].toFixed(1)} ms, max ${samples.at(-1)!.toFixed(1)} ms)\n`,
);
