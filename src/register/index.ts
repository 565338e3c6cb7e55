/**
 * `fino/register`: lets Node.js run files that import `fino:validate`, `fino:task`,
 * `fino:ai/tool`, … — and TypeScript files — with one flag:
 * `node --import fino/register app.ts`.
 *
 * Importing this module registers tsx's loader (TypeScript) and then the `fino:`
 * resolve hook, so the hook sees each specifier first.
 *
 * @example
 * ```ts
 * // node --import fino/register app.ts
 * import { tool } from 'fino:ai/tool';
 * ```
 *
 * @module
 */
import { register } from 'node:module';
import { register as registerTypeScript } from 'tsx/esm/api';

registerTypeScript();
register('./hooks.js', import.meta.url);

export { FINO_MODULES, resolveFinoSpecifier } from './specifiers.ts';
