import type { ToolDefinition } from '../../task/index.ts';
import type { Tool } from './tool.ts';

/**
 * Convert a tool into the provider-neutral model tool definition: its name,
 * description and normalized JSON Schema parameters. Agents call this for the tools
 * they are given; use it directly in a custom loop or to wire tools into a protocol.
 *
 * @example
 * ```ts
 * import { tool, toToolDefinition } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const search = tool({
 *   name: 'search',
 *   description: 'Search the web.',
 *   parameters: v.object({ query: v.string() }),
 *   execute: async ({ query }) => `results for ${query}`,
 * });
 * toToolDefinition(search);
 * // → { name: 'search', description: 'Search the web.', parameters: { type: 'object', … } }
 * ```
 */
export function toToolDefinition(t: Tool<any, any>): ToolDefinition {
  return t.toToolDefinition();
}
