import { Tool } from 'fino:ai/tool';
import { v } from 'fino:validate';

const weather = new Tool({
  name: 'get_weather',
  description: 'Get current weather for a city.',
  parameters: v.object({ city: v.string() }),
  execute: async ({ city }: { city: string }) => `Sunny in ${city}`,
});

// Direct execution, outside an agent loop:
const text = await weather.run({ city: 'Lisbon' });

// Agent-style invocation with the tool_result contract (agents build the
// context for you; shown here for a custom loop):
const result = await weather.invoke({ city: 'Lisbon' }, {
  signal: AbortSignal.timeout(5_000),
  toolCallId: 'call_1',
  step: 0,
  runId: 'run_1',
  messages: [],
  suspend() { throw new Error('no suspension support'); },
});
// → { content: 'Sunny in Lisbon' }
console.log(JSON.stringify({ text, result }));
