/** The `scopes` option: the OAuth scopes `mcpServer({ auth })` requires to call a task. */
import { describe, expect, it } from 'vitest';
import { tool } from '../../src/ai/tool/index.ts';
import { task } from '../../src/task/index.ts';

describe('scopes', () => {
  it('is kept on tasks and tools as a copy, empty when not declared', () => {
    const given = ['notes:write'];
    const write = task({ name: 'a', scopes: given, run: () => 'ok' });
    given.push('later');
    expect(write.scopes).toEqual(['notes:write']);
    expect(tool({ name: 'b', scopes: ['x', 'y:z'], execute: () => 'ok' }).scopes).toEqual([
      'x',
      'y:z',
    ]);
    expect(tool({ name: 'c', execute: () => 'ok' }).scopes).toEqual([]);
  });

  it('rejects a value that is not an array', () => {
    expect(() => tool({ name: 'bad', scopes: 'notes' as never, execute: () => 'ok' })).toThrow(
      'Task "bad": scopes: expected an array of OAuth scope strings, received string "notes"',
    );
  });

  it.each([
    ['an empty string', '', 'string ""'],
    ['a space', 'a b', 'string "a b"'],
    ['a quote', 'a"b', 'string "a\\"b"'],
    ['a number', 7, 'number 7'],
  ])('rejects a scope with %s', (_name, scope, shown) => {
    expect(() => task({ name: 'bad', scopes: ['ok', scope as never], run: () => 'ok' })).toThrow(
      `Task "bad": scopes[1]: expected a non-empty OAuth scope (printable ASCII, no spaces, quotes or backslashes), received ${shown}`,
    );
  });
});
