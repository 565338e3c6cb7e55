import { compile } from '../../src/validate/index.ts';
import { REAL_WORLD } from './real-world.ts';

const c = REAL_WORLD.find((x) => x.name === process.argv[2])!;
const f = compile(c.schema);
const d = c.invalid;
for (let r = 0; r < 5; r++) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < 200000; i++) f.safeParse(d);
  console.log(Number(process.hrtime.bigint() - t) / 200000, 'ns');
}
console.log(JSON.stringify(f.safeParse(d).issues));
