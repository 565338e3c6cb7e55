// Resolves the conformance CLI's `fs` to fs-with-glob.mjs; everything else as usual. Both
// installed copies: 0.1.16 under its own name, 0.2.0-alpha.12 under the alias
// mcp-conformance-next (it needs no other shim on Node 20).
const cliFolders = ['/@modelcontextprotocol/conformance/', '/mcp-conformance-next/'];

export async function resolve(specifier, context, next) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    cliFolders.some((folder) => context.parentURL?.includes(folder))
  ) {
    return { url: new URL('./fs-with-glob.mjs', import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}
