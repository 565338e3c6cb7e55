/**
 * The `fino:` specifiers and the package modules they stand for.
 */

/**
 * Each `fino:` specifier, mapped to its module's folder under `dist/` (or `src/`).
 *
 * @example
 * ```ts
 * import { FINO_MODULES } from 'fino/register';
 *
 * FINO_MODULES['fino:ai/tool']; // → 'ai/tool'
 * ```
 */
export const FINO_MODULES: Readonly<Record<string, string>> = Object.freeze({
  'fino:validate': 'validate',
  'fino:task': 'task',
  'fino:ai/tool': 'ai/tool',
  'fino:ai/model': 'ai/model',
  'fino:ai/agent': 'ai/agent',
  'fino:ai/mcp': 'ai/mcp',
  'fino:ai/session': 'ai/session',
  'fino:ai/ui': 'ai/ui',
  'fino:workflow': 'workflow',
});

/**
 * The URL of the module a `fino:` specifier names, next to `root` (the package's
 * `dist/` folder); `undefined` for any other specifier. Throws for an unknown
 * `fino:` module, naming the known ones.
 *
 * @example
 * ```ts
 * import { resolveFinoSpecifier } from 'fino/register';
 *
 * resolveFinoSpecifier('fino:task', new URL('file:///app/node_modules/fino/dist/'));
 * // → 'file:///app/node_modules/fino/dist/task/index.js'
 * ```
 */
export function resolveFinoSpecifier(specifier: string, root: URL): string | undefined {
  if (!specifier.startsWith('fino:')) return undefined;
  const folder = Object.hasOwn(FINO_MODULES, specifier) ? FINO_MODULES[specifier] : undefined;
  if (folder === undefined) {
    throw new Error(
      `Unknown module "${specifier}": fino provides ${Object.keys(FINO_MODULES).join(', ')}`,
    );
  }
  return new URL(`${folder}/index.js`, root).href;
}
