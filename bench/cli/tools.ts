// The module `fino tools` lists in the start-up benchmark: two tools, as a user writes them.
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

export const weather = tool({
  name: 'get_weather',
  description: 'Get current weather for a city.',
  parameters: v.object({
    city: v.string().describe('City name'),
    unit: v.enum(['c', 'f']).optional(),
  }),
  execute: ({ city }) => `Sunny in ${city}`,
});

export const add = tool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: v.object({ a: v.number(), b: v.number() }),
  execute: ({ a, b }) => String(a + b),
});
