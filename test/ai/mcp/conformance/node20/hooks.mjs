// Resolves the conformance CLI's `fs` to fs-with-glob.mjs; everything else as usual.
export async function resolve(specifier, context, next) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    context.parentURL?.includes('/@modelcontextprotocol/conformance/')
  ) {
    return { url: new URL('./fs-with-glob.mjs', import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}
