/**
 * Times one real-world case alone, or all of them in turn (`all`: every validator's
 * closures then see every schema, as in real-world-bench.ts), for profiling:
 * `node --import tsx --cpu-prof bench/validate/profile-one.ts "<case name>|all"
 * [valid|invalid] [safeParse|is]`. `ROUNDS` (default 5) rounds of 200,000 calls.
 */
import { compile } from '../../src/validate/index.ts';
import { REAL_WORLD } from './real-world.ts';

const [name, which = 'invalid', method = 'safeParse'] = process.argv.slice(2);
const cases = name === 'all' ? REAL_WORLD : REAL_WORLD.filter((c) => c.name === name);
if (cases.length === 0) throw new Error(`no case named ${name}`);
const calls = cases.map((found) => {
  const validator = compile(found.schema);
  const data = which === 'valid' ? found.valid : found.invalid;
  return method === 'is' ? () => validator.is(data) : () => validator.safeParse(data).success;
});
const perCase = Math.ceil(200_000 / calls.length);
for (let round = 0; round < Number(process.env.ROUNDS ?? 5); round++) {
  const start = process.hrtime.bigint();
  for (const call of calls) for (let i = 0; i < perCase; i++) call();
  console.log(
    `${(Number(process.hrtime.bigint() - start) / (perCase * calls.length)).toFixed(0)} ns`,
  );
}
