import { tool, toToolDefinition } from 'fino:ai/tool';
import { v } from 'fino:validate';

const search = tool({
  name: 'search',
  description: 'Search the web.',
  parameters: v.object({ query: v.string() }),
  execute: async ({ query }: { query: string }) => `results for ${query}`,
});

const def = toToolDefinition(search);
// → { name: 'search', description: 'Search the web.', parameters: { type: 'object', ... } }
console.log(JSON.stringify(def));
