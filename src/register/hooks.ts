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
 * Is this resolved file TypeScript with ES module syntax that Node would load as
 * CommonJS (a `.ts` file in a package without `"type": "module"`)? Node 22 detects such
 * syntax itself; on Node 20 the file would fail to load (`require()` of an ES module).
 */
function isEsmTypeScriptInCommonJsScope(resolved: Resolved): boolean {
  if (resolved.format !== 'commonjs' || !/\.tsx?$/.test(resolved.url)) return false;
  if (!resolved.url.startsWith('file:')) return false;
  try {
    return ES_MODULE_SYNTAX.test(readFileSync(fileURLToPath(resolved.url), 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The `resolve` hook: `fino:ai/tool` → `…/dist/ai/tool/index.js`; a TypeScript file with
 * `import`/`export` statements is an ES module; anything else passes on unchanged.
 */
export async function resolve(specifier: string, context: unknown, nextResolve: NextResolve) {
  const url = resolveFinoSpecifier(specifier, root);
  if (url !== undefined) return { url, format: 'module', shortCircuit: true };
  const resolved = await nextResolve(specifier, context);
  return isEsmTypeScriptInCommonJsScope(resolved) ? { ...resolved, format: 'module' } : resolved;
}
