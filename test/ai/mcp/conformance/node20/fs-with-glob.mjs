// node:fs with the globSync Node 22 added: the conformance CLI imports it by name (for
// its `tier-check` command only), so on Node 20 the import alone would fail.
export * from 'node:fs';
export { default } from 'node:fs';
export function globSync() {
  throw new Error('fs.globSync needs Node.js 22 or later');
}
