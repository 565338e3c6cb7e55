import { describe, expect, it } from 'vitest';
import { task } from '../../src/task/index.ts';
import { v } from '../../src/validate/index.ts';
import { usageError } from './usage-error.ts';

const search = task({
  name: 'search',
  description: 'Search the index.',
  inputSchema: v.object({
    query: v.string().describe('What to look for'),
    limit: v.integer().optional(),
    ratio: v.number().optional(),
    exact: v.boolean().optional(),
    sort: v.enum(['asc', 'desc']).optional(),
    tags: v.array(v.string()).optional(),
    maxItems: v.number().optional(),
  }),
  run: (input) => JSON.stringify(input),
});

describe('Task.parse with options derived from the schema', () => {
  it('parses strings, numbers, integers, booleans, choices and repeatable arrays', () => {
    const parsed = search.parse([
      '--query',
      'cats',
      '--limit=3',
      '--ratio',
      '0.5',
      '--exact',
      '--sort',
      'desc',
      '--tags',
      'a',
      '--tags',
      'b',
      '--max-items',
      '9',
    ]);
    expect(parsed.input).toEqual({
      query: 'cats',
      limit: 3,
      ratio: 0.5,
      exact: true,
      sort: 'desc',
      tags: ['a', 'b'],
      maxItems: 9,
    });
    expect(parsed.mode).toBe('text');
    expect(parsed.help).toBe(false);
    expect(parsed.task).toBe(search);
  });

  it('accepts --no-flag for booleans and the property name as a flag', () => {
    expect(search.parse(['--query', 'q', '--no-exact', '--maxItems', '1']).input).toMatchObject({
      exact: false,
      maxItems: 1,
    });
  });

  it('names the flag and what was expected on errors', () => {
    expect(usageError(() => search.parse(['--query', 'q', '--nope'])).message).toMatch(
      /unknown option --nope; expected one of --query, --limit/,
    );
    expect(usageError(() => search.parse(['--query'])).message).toBe(
      '--query is missing its value: expected a string value',
    );
    expect(usageError(() => search.parse(['--query', 'q', '--limit', 'x'])).message).toBe(
      '--limit: expected an integer value, received "x"',
    );
    expect(usageError(() => search.parse(['--query', 'q', '--limit', '1.5'])).message).toMatch(
      /--limit: expected an integer value/,
    );
    expect(usageError(() => search.parse(['--query', 'q', '--sort', 'up'])).message).toBe(
      '--sort: expected one of asc, desc, received "up"',
    );
    expect(usageError(() => search.parse([])).message).toBe(
      'missing required option --query (a string value)',
    );
    expect(usageError(() => search.parse(['--query', 'q', 'extra'])).message).toBe(
      'unexpected argument "extra"',
    );
  });

  it('carries a help hint naming the command', () => {
    expect(usageError(() => search.parse([], { usage: 'fino run t.ts search' })).hint).toBe(
      'Run "fino run t.ts search --help" for usage.',
    );
  });

  it('reports schema validation failures by flag', () => {
    const ranged = task({
      name: 'ranged',
      inputSchema: v.object({ count: v.number().min(1) }),
      run: () => '',
    });
    expect(usageError(() => ranged.parse(['--count', '0'])).message).toMatch(/^--count: /);
  });

  it('lists at most 20 validation failures of a huge --input, then how many more', () => {
    const numbers = task({
      name: 'numbers',
      inputSchema: v.object({ values: v.array(v.number()) }),
      run: () => '',
    });
    const input = { values: Array.from({ length: 100_000 }, () => 'x') };
    const lines = usageError(() => numbers.parse([], { input })).message.split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('--values: expected number, received string "x"');
    expect(lines[20]).toBe('… and 99980 more issues');
  });

  it('recognises --help and --json', () => {
    expect(search.parse(['--help']).help).toBe(true);
    const both = task({ name: 'b', outputMode: 'both', run: () => ({}) });
    expect(both.parse(['--json']).mode).toBe('json');
    expect(usageError(() => search.parse(['--query', 'q', '--json'])).message).toBe(
      '--json: "search" supports only "text" output',
    );
  });

  it('starts from a base input that flags override', () => {
    expect(
      search.parse(['--limit', '2'], { input: { query: 'from json', limit: 1 } }).input,
    ).toEqual({ query: 'from json', limit: 2 });
  });

  it('keeps a __proto__ key of the base input as data', () => {
    const loose = task({ name: 'loose', run: (input) => input });
    const base = JSON.parse('{"__proto__": {"polluted": true}}');
    const parsed = loose.parse([], { input: base });
    expect(Object.getPrototypeOf(parsed.input)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('dispatches to children as subcommands', () => {
    const add = task({
      name: 'add',
      inputSchema: v.object({ n: v.number() }),
      run: ({ n }) => n,
    });
    const root = task({ name: 'calc', children: [add], run: () => '' });
    const parsed = root.parse(['add', '--n', '4']);
    expect(parsed.task).toBe(add);
    expect(parsed.usage).toBe('calc add');
    expect(parsed.input).toEqual({ n: 4 });
    expect(usageError(() => root.parse(['add'])).hint).toBe('Run "calc add --help" for usage.');
  });
});

describe('Task.parse with a cli spec', () => {
  const copy = task({
    name: 'copy',
    cli: {
      options: {
        from: { type: 'string', required: true, description: 'Source' },
        to: { type: 'string', required: true },
        force: { type: 'boolean', short: 'f' },
      },
      positionals: ['from', 'to'],
    },
    run: (input) => input,
  });

  it('fills positionals in order and honours short flags', () => {
    expect(copy.parse(['a.txt', 'b.txt', '-f']).input).toEqual({
      from: 'a.txt',
      to: 'b.txt',
      force: true,
    });
  });

  it('renders help from the spec', () => {
    expect(copy.help('fino run x.ts copy')).toBe(
      [
        'Usage: fino run x.ts copy <from> <to> [options]',
        '',
        'Options:',
        '  --from <string>  Source (required)',
        '  --to <string>    (required)',
        '  -f, --force',
        '  -h, --help       Show this help',
      ].join('\n'),
    );
  });
});

describe('Task.help', () => {
  it('lists options with types, choices, required and repeatable marks, and commands', () => {
    const root = task({ name: 'root', description: 'Root.', children: [search], run: () => '' });
    expect(root.help()).toContain('Commands:\n  search  Search the index.');
    const text = search.help();
    expect(text).toContain('Usage: search [options]\n\nSearch the index.');
    expect(text).toContain('--query <string>');
    expect(text).toContain('What to look for (required)');
    expect(text).toContain('--sort <asc|desc>');
    expect(text).toContain('(repeatable)');
    expect(text).not.toContain('--json');
  });
});
