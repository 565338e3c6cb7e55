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
import { activateAll } from './activate.ts';

await activateAll();

export { FINO_MODULES, resolveFinoSpecifier } from './specifiers.ts';
