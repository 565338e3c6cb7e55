import { tool } from 'fino:ai/tool';
import { v } from 'fino:validate';

const fetchPage = tool({
  name: 'fetch_page',
  description: 'Fetch a URL as text.',
  parameters: v.object({ url: v.string() }),
  execute: async ({ url }: { url: string }, ctx) => {
    const res = await fetch(url, { signal: ctx.signal });
    return { content: await res.text() };
  },
});
console.log(JSON.stringify(fetchPage.toToolDefinition()));
