/**
 * Node.js module customization hooks (loaded by `module.register`): resolve the
 * `fino:` specifiers to this package's own modules.
 */
import { resolveFinoSpecifier } from './specifiers.ts';

type NextResolve = (specifier: string, context: unknown) => Promise<unknown> | unknown;

/** This file is `dist/register/hooks.js`; the modules sit beside `dist/register/`. */
const root = new URL('../', import.meta.url);

/** The `resolve` hook: `fino:ai/tool` → `…/dist/ai/tool/index.js`; anything else passes on. */
export function resolve(specifier: string, context: unknown, nextResolve: NextResolve) {
  const url = resolveFinoSpecifier(specifier, root);
  if (url === undefined) return nextResolve(specifier, context);
  return { url, format: 'module', shortCircuit: true };
}
