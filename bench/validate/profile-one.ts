/**
 * Times one real-world case alone, for profiling: `node --import tsx --cpu-prof
 * bench/validate/profile-one.ts "<case name>" [valid|invalid] [safeParse|is]`.
 */
import { compile } from '../../src/validate/index.ts';
import { REAL_WORLD } from './real-world.ts';

const [name, which = 'invalid', method = 'safeParse'] = process.argv.slice(2);
const found = REAL_WORLD.find((c) => c.name === name);
if (found === undefined) throw new Error(`no case named ${name}`);
const validator = compile(found.schema);
const data = which === 'valid' ? found.valid : found.invalid;
const call = method === 'is' ? () => validator.is(data) : () => validator.safeParse(data).success;
for (let round = 0; round < 5; round++) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < 200_000; i++) call();
  console.log(`${(Number(process.hrtime.bigint() - start) / 200_000).toFixed(0)} ns`);
}
