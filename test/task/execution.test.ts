/** The `execution` option: whether MCP clients may, or must, run a task as an MCP Task. */
import { describe, expect, it } from 'vitest';
import { tool } from '../../src/ai/tool/index.ts';
import { task } from '../../src/task/index.ts';

describe('execution', () => {
  it('is kept on tasks and tools, undefined when not declared', () => {
    expect(task({ name: 'a', execution: 'task', run: () => 'ok' }).execution).toBe('task');
    expect(tool({ name: 'b', execution: 'task-optional', execute: () => 'ok' }).execution).toBe(
      'task-optional',
    );
    expect(tool({ name: 'c', execute: () => 'ok' }).execution).toBeUndefined();
  });

  it.each([
    ['a boolean', true, 'boolean true'],
    ['another word', 'async', 'string "async"'],
    ['null', null, 'null'],
  ])('rejects %s', (_name, execution, shown) => {
    expect(() => tool({ name: 'bad', execution: execution as never, execute: () => 'ok' })).toThrow(
      `Task "bad": execution: expected 'task' or 'task-optional', received ${shown}`,
    );
  });
});
