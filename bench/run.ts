/**
 * Runs benchmarks: `npm run bench` runs every `bench/<name>/index.ts`;
 * `npm run bench -- validate invoke` runs the named ones. Each prints Markdown tables
 * of ratios against its peers, to be recorded in `bench/RESULTS.md`.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = import.meta.dirname;
const available = readdirSync(root).filter((name) => {
  const dir = join(root, name);
  return statSync(dir).isDirectory() && readdirSync(dir).includes('index.ts');
});
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}
console.log(`node ${process.version}, ${new Date().toISOString()}\n`);
for (const name of wanted.length > 0 ? wanted : available) {
  console.log(`## ${name}\n`);
  await import(pathToFileURL(join(root, name, 'index.ts')).href);
}
