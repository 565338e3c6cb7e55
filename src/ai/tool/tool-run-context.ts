/**
 * The context a tool executor receives: `fino:task`'s `CallContext` under the name
 * `fino:ai/tool` gives it (decision 072), its fields documented there once.
 */
import type { CallContext } from '../../task/index.ts';

/**
 * Runtime context passed to a tool executor: the fields of `CallContext` (from
 * `fino:task`), which a task's executor receives too, so one executor serves both.
 *
 * Agents populate every field when they invoke a tool during a run. When the same tool
 * is executed outside an agent loop (for example directly through `Task.run()`), the
 * identifiers fall back to `'task'`/`0` and `messages` is empty, so executors can rely
 * on the fields always being present.
 *
 * @example
 * ```ts
 * import { tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const fetchPage = tool({
 *   name: 'fetch_page',
 *   description: 'Fetch a URL as text.',
 *   parameters: v.object({ url: v.string() }),
 *   execute: async ({ url }, ctx) => {
 *     const res = await fetch(url, { signal: ctx.signal });
 *     return { content: await res.text() };
 *   },
 * });
 * ```
 */
export interface ToolRunContext extends CallContext {}
