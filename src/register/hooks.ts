/**
 * Node.js module customization hooks (loaded by `module.register`): resolve the
 * `fino:` specifiers to this package's own modules, and load TypeScript files written
 * with `import`/`export` as ES modules even outside a `"type": "module"` package.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveFinoSpecifier } from './specifiers.ts';

interface Resolved {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context: unknown) => Promise<Resolved> | Resolved;

/** This file is `dist/register/hooks.js`; the modules sit beside `dist/register/`. */
const root = new URL('../', import.meta.url);

/** A statement that starts with `import` or `export`, as in an ES module. */
const ES_MODULE_SYNTAX = /^\s*(?:import\s*[\w{*'"]|export\s)/m;

/**
 * The file a resolved URL names, without the query tsx appends when an ES module imports
 * a file it takes for CommonJS (`b.ts%3Ftsx-commonjs-export-preparse=1?tsx-…`).
 */
function fileUrlOf(url: string): URL {
  const file = new URL(url);
  for (const key of [...file.searchParams.keys()]) {
    if (key.startsWith('tsx-')) file.searchParams.delete(key);
  }
  file.pathname = file.pathname.replace(/%3Ftsx-[^/]*$/, '');
  return file;
}

/**
 * The formats a resolver gives a `.ts` file Node would load as CommonJS: `commonjs`
 * (Node 20, tsx), `commonjs-typescript` (Node ≥ 22.7's own TypeScript support), or none
 * at all — Node 22 and 24 leave the format of a `.ts` file outside a `"type": "module"`
 * package to the loader, which then takes it for CommonJS.
 */
const COMMONJS_FORMATS = new Set<string | null | undefined>([
  'commonjs',
  'commonjs-typescript',
  undefined,
  null,
  '',
]);

/**
 * The resolved file as an ES module, when it is TypeScript with ES module syntax that
 * Node would load as CommonJS (a `.ts` file in a package without `"type": "module"`, or
 * in a folder without a `package.json`); `undefined` otherwise. Loaded as CommonJS, the
 * file fails to resolve the `fino:` specifiers it imports (`require('fino:…')`), and on
 * Node 22 and 24 its top-level `await` fails to compile.
 */
function asEsmTypeScript(resolved: Resolved): Resolved | undefined {
  if (!COMMONJS_FORMATS.has(resolved.format) || !resolved.url.startsWith('file:')) {
    return undefined;
  }
  const file = fileUrlOf(resolved.url);
  if (!/\.tsx?$/.test(file.pathname)) return undefined;
  try {
    if (!ES_MODULE_SYNTAX.test(readFileSync(fileURLToPath(file), 'utf8'))) return undefined;
  } catch {
    return undefined;
  }
  return { ...resolved, url: file.href, format: 'module' };
}

/**
 * The `resolve` hook: `fino:ai/tool` → `…/dist/ai/tool/index.js`; a TypeScript file with
 * `import`/`export` statements is an ES module; anything else passes on unchanged.
 */
export async function resolve(specifier: string, context: unknown, nextResolve: NextResolve) {
  const url = resolveFinoSpecifier(specifier, root);
  if (url !== undefined) return { url, format: 'module', shortCircuit: true };
  const resolved = await nextResolve(specifier, context);
  return asEsmTypeScript(resolved) ?? resolved;
}
