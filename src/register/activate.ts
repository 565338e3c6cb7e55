/**
 * Activates the `fino:` specifiers and TypeScript loading on demand: `fino/register`
 * activates both at once; the `fino` binary activates them only when a command loads a
 * user's module, and TypeScript only for a TypeScript file.
 */
import { register } from 'node:module';

let typeScript = false;
let specifiers = false;

/**
 * The hook module beside this one: `hooks.js` when built, `hooks.ts` when fino runs from
 * its sources (tests). Node 24 resolves `register()`'s specifier as written, without
 * tsx's `.js` → `.ts` mapping that Node 20 applied.
 */
const HOOKS = new URL(import.meta.url).pathname.endsWith('.ts') ? './hooks.ts' : './hooks.js';

/** Registers the `fino:` resolve hook, unless it is registered and runs before tsx's. */
function activateFinoSpecifiers(): void {
  if (specifiers) return;
  register(HOOKS, import.meta.url);
  specifiers = true;
}

/**
 * Registers tsx's loader, which Node needs to run TypeScript files (once). Hooks
 * registered later run first, so the `fino:` hook must be registered (again) after it.
 */
async function activateTypeScript(): Promise<void> {
  if (typeScript) return;
  const { register: registerTypeScript } = await import('tsx/esm/api');
  registerTypeScript();
  typeScript = true;
  specifiers = false;
}

/** A file tsx would load: `.ts`, `.tsx`, `.mts` or `.cts`. */
const TYPESCRIPT_FILE = /\.[cm]?tsx?$/;

/**
 * Makes `url` importable: activates the `fino:` specifiers, and TypeScript loading
 * first when `url` is a TypeScript file.
 *
 * @example
 * ```ts
 * import { activateFor } from './activate.ts';
 *
 * const url = new URL('./tools.ts', import.meta.url).href;
 * await activateFor(url);
 * const tools = await import(url);
 * ```
 */
export async function activateFor(url: string): Promise<void> {
  if (TYPESCRIPT_FILE.test(new URL(url).pathname)) await activateTypeScript();
  activateFinoSpecifiers();
}

/**
 * Activates TypeScript loading and the `fino:` specifiers, in that order (each hook
 * registered later runs first, so the `fino:` hook sees every specifier before tsx).
 *
 * @example
 * ```ts
 * import { activateAll } from './activate.ts';
 *
 * await activateAll();
 * ```
 */
export async function activateAll(): Promise<void> {
  await activateTypeScript();
  activateFinoSpecifiers();
}
