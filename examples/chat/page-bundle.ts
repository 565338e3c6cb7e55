/**
 * The page's script, bundled at start-up by esbuild's JS API, in memory: no bundler
 * configuration and no build step (decision 257). React, `@ai-sdk/react` and `ai` come
 * from the repository's node_modules.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

/** `page.tsx` and what it imports, as one minified ES module for browsers. */
export async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [join(import.meta.dirname, 'page.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
