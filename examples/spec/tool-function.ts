import { tool } from 'fino:ai/tool';
import { v } from 'fino:validate';

const add = tool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: v.object({ a: v.number(), b: v.number() }),
  execute: ({ a, b }: { a: number; b: number }) => String(a + b),
});
console.log(JSON.stringify(await add.invoke({ a: 2, b: 3 })));
