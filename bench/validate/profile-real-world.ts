import { compile } from '../../src/validate/index.ts';
import { REAL_WORLD } from './real-world.ts';

const mode = process.argv[2];
const vs = REAL_WORLD.map((c) => ({
  f: compile(c.schema),
  d: mode === 'valid' ? c.valid : c.invalid,
}));
let n = 0;
const t = Date.now();
while (Date.now() - t < 4000)
  for (const { f, d } of vs) for (let i = 0; i < 100; i++) if (f.safeParse(d).success) n++;
console.log(n);
