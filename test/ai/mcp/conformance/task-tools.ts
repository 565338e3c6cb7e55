/**
 * The tools the Tasks-extension scenarios (`tasks-*`, SEP-2663) of suite 0.2.0-alpha.12
 * call on the everything server: one answered directly, the others run as durable tasks.
 */
import { type Tool, tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';

/** Waits `ms`, or until `signal` aborts (the task was cancelled). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export const taskTools: Tool[] = [
  tool({
    name: 'greet',
    description: 'Greets someone, at once.',
    parameters: v.object({ name: v.string() }),
    execute: ({ name }) => `Hello, ${name}!`,
  }),
  tool({
    name: 'slow_compute',
    description: 'Sleeps `seconds`, then answers; a task when the client takes tasks.',
    parameters: v.object({ seconds: v.number(), label: v.string().optional() }),
    execution: 'task-optional',
    execute: async ({ seconds, label }, ctx) => {
      await sleep(seconds * 1000, ctx.signal);
      return `Computed ${label ?? 'result'} after ${seconds}s.`;
    },
  }),
  tool({
    name: 'confirm_delete',
    description:
      'Asks the user to confirm, then "deletes" the file; a task when the client takes tasks.',
    parameters: v.object({ filename: v.string() }),
    execution: 'task-optional',
    execute: async ({ filename }, ctx) => {
      const answer = await ctx.elicit({
        message: `Delete ${filename}?`,
        schema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
      });
      return answer.action === 'accept' && answer.content?.confirm === true
        ? `Deleted ${filename}.`
        : `Kept ${filename}.`;
    },
  }),
  tool({
    name: 'multi_input',
    description: 'Asks two questions at once, then answers with both.',
    parameters: v.object({}),
    execution: 'task-optional',
    execute: async (_args, ctx) => {
      const form = { type: 'object', properties: { name: { type: 'string' } } } as const;
      const [first, second] = await Promise.all([
        ctx.elicit({ message: 'First name?', schema: form }),
        ctx.elicit({ message: 'Second name?', schema: form }),
      ]);
      const name = (answer: typeof first) =>
        answer.action === 'accept' ? String(answer.content.name) : answer.action;
      return `Got ${name(first)} and ${name(second)}.`;
    },
  }),
  tool({
    name: 'failing_job',
    description: 'Runs only as a task, and always fails.',
    parameters: v.object({}),
    execution: 'task',
    execute: async (_args, ctx) => {
      await sleep(200, ctx.signal);
      throw new Error('failing_job always fails');
    },
  }),
];
