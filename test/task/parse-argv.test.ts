/**
 * What `Task.parse()` and `help()` give a command line built on a schema: positional
 * arguments, a passthrough for another parser, defaults in help, unknown commands, and
 * the one error wording (`<flag>: expected …, received …`).
 */
import { describe, expect, it } from 'vitest';
import { task } from '../../src/task/index.ts';
import { v } from '../../src/validate/index.ts';
import { usageError } from './usage-error.ts';

const serve = task({
  name: 'serve',
  description: 'Serve a folder.',
  inputSchema: v.object({
    dir: v.string().describe('the folder to serve'),
    index: v.string().optional().describe('the page for /'),
    port: v.integer().min(0).max(65_535).default(8080).describe('the port'),
    mode: v.enum(['static', 'spa']).default('static'),
  }),
  cli: { positionals: ['dir', 'index'] },
  run: (input) => JSON.stringify(input),
});

describe('a positional value that starts with "-"', () => {
  it('is taken after "--", and without it the error says to put -- before it', () => {
    expect(serve.parse(['--port', '1', '--', '-dash-folder']).input).toMatchObject({
      dir: '-dash-folder',
    });
    expect(usageError(() => serve.parse(['-dash-folder'])).message).toBe(
      'unknown option -dash-folder; expected one of --port, --mode, --help; if -dash-folder is the <dir> argument, put -- before it',
    );
  });
});

describe('a cli spec with positionals and no options', () => {
  it('derives the options from the schema and fills the positionals in order', () => {
    expect(serve.parse(['public', '--port', '3000']).input).toEqual({
      dir: 'public',
      port: 3000,
      mode: 'static',
    });
    expect(serve.parse(['public', 'home.html', '--mode=spa']).input).toEqual({
      dir: 'public',
      index: 'home.html',
      port: 8080,
      mode: 'spa',
    });
  });

  it('gives positionals no flag', () => {
    expect(usageError(() => serve.parse(['--dir', 'public'])).message).toBe(
      'unknown option --dir; expected one of --port, --mode, --help',
    );
  });

  it('names the closest flag of a misspelt one, and none for a flag far from all', () => {
    expect(usageError(() => serve.parse(['public', '--prot', '80'])).message).toBe(
      'unknown option --prot; did you mean --port? expected one of --port, --mode, --help',
    );
    expect(usageError(() => serve.parse(['public', '--Mode=spa'])).message).toBe(
      'unknown option --Mode; did you mean --mode? expected one of --port, --mode, --help',
    );
    expect(usageError(() => serve.parse(['public', '--verbose'])).message).toBe(
      'unknown option --verbose; expected one of --port, --mode, --help',
    );
  });

  it('names a missing positional as the usage line shows it', () => {
    expect(usageError(() => serve.parse([])).message).toBe('missing <dir>');
    expect(usageError(() => serve.parse(['a', 'b', 'c'])).message).toBe('unexpected argument "c"');
  });

  it('reports bad values as <flag>: expected …, received …, range checks included', () => {
    expect(usageError(() => serve.parse(['p', '--port', 'abc'])).message).toBe(
      '--port: expected an integer value, received "abc"',
    );
    expect(usageError(() => serve.parse(['p', '--port', '1e309'])).message).toBe(
      '--port: expected an integer value, received "1e309"',
    );
    expect(usageError(() => serve.parse(['p', '--port', '99999'])).message).toBe(
      '--port: expected number <= 65535, received 99999',
    );
    expect(usageError(() => serve.parse(['p', '--mode', 'dev'])).message).toBe(
      '--mode: expected one of static, spa, received "dev"',
    );
  });

  it('names a positional that fails the schema as <name>', () => {
    const named = task({
      name: 'named',
      inputSchema: v.object({ runId: v.string().min(3) }),
      cli: { positionals: ['runId'] },
      run: () => '',
    });
    expect(usageError(() => named.parse(['ab'])).message).toBe(
      '<run-id>: expected at least 3 characters, received 2 characters',
    );
  });

  it('quotes a received value escaped and cut to 100 characters', () => {
    const message = usageError(() =>
      serve.parse(['p', '--port', `\x1b[2J${'9'.repeat(10_000)}`]),
    ).message;
    expect(message).toMatch(/^--port: expected an integer value, received "\\u001b\[2J9+…"$/);
    expect(message.length).toBeLessThan(200);
  });

  it('lists arguments, optional ones bracketed, and defaults in help', () => {
    expect(serve.help('fino serve')).toBe(
      [
        'Usage: fino serve <dir> [index] [options]',
        '',
        'Serve a folder.',
        '',
        'Arguments:',
        '  <dir>    the folder to serve',
        '  [index]  the page for /',
        '',
        'Options:',
        '  --port <integer>     the port (default: 8080)',
        '  --mode <static|spa>  (default: static)',
        '  -h, --help           Show this help',
      ].join('\n'),
    );
  });

  it('keeps a cli spec with options as given: no derivation', () => {
    const given = task({
      name: 'given',
      inputSchema: v.object({ a: v.string().optional(), b: v.string().optional() }),
      cli: { options: { a: { type: 'string' } } },
      run: () => '',
    });
    expect(usageError(() => given.parse(['--b', 'x'])).message).toMatch(/^unknown option --b;/);
  });
});

describe('a passthrough property', () => {
  const wrap = task({
    name: 'wrap',
    inputSchema: v.object({
      file: v.string(),
      rest: v.array(v.string()).describe('what the wrapped command gets'),
      yes: v.boolean().optional(),
      input: v.string().optional(),
    }),
    cli: { positionals: ['file'], passthrough: 'rest' },
    run: () => '',
  });

  it('collects, in order, every argument after the positionals that the spec does not define', () => {
    expect(
      wrap.parse(['f.ts', 'tool', '--city', 'Lisbon', '--yes', '-n', '5', '--input', '{}']).input,
    ).toEqual({
      file: 'f.ts',
      rest: ['tool', '--city', 'Lisbon', '-n', '5'],
      yes: true,
      input: '{}',
    });
  });

  it('passes --help, -h and --json on once the positionals are filled', () => {
    expect(wrap.parse(['f.ts', '--help', '--json', '-h'])).toMatchObject({
      help: false,
      mode: 'text',
      input: { rest: ['--help', '--json', '-h'] },
    });
    expect(wrap.parse(['--help']).help).toBe(true);
  });

  it('passes -- and everything after it on, its own options included', () => {
    expect(wrap.parse(['f.ts', 'x', '--', '--yes', 'y']).input).toEqual({
      file: 'f.ts',
      rest: ['x', '--', '--yes', 'y'],
    });
    expect(wrap.parse(['--', 'f.ts', '--yes']).input).toEqual({
      file: 'f.ts',
      rest: ['--', '--yes'],
    });
  });

  it('is an empty array when nothing is left, and still refuses unknown options before the positionals', () => {
    expect(wrap.parse(['f.ts']).input).toEqual({ file: 'f.ts', rest: [] });
    expect(usageError(() => wrap.parse(['--city', 'x', 'f.ts'])).message).toBe(
      'unknown option --city; expected one of --yes, --input, --help',
    );
    expect(usageError(() => wrap.parse([])).message).toBe('missing <file>');
  });

  it('shows as [name…] in help', () => {
    const help = wrap.help();
    expect(help).toMatch(/^Usage: wrap <file> \[rest…\] \[options\]/);
    expect(help).toContain('  [rest…]  what the wrapped command gets');
  });
});

describe('a task with children', () => {
  const root = task({
    name: 'db',
    children: [task({ name: 'list', run: () => '' }), task({ name: 'drop', run: () => '' })],
    run: () => '',
  });

  it('names an unknown command and the ones it knows', () => {
    const error = usageError(() => root.parse(['lsit']));
    expect(error.message).toBe('unknown command "lsit"; expected one of list, drop');
    expect(error.hint).toBe('Run "db --help" for usage.');
    expect(root.parse([]).task).toBe(root);
  });
});

describe('flags an attacker might send', () => {
  const loose = task({
    name: 'loose',
    inputSchema: v.object({ port: v.integer().optional(), tags: v.array(v.string()).optional() }),
    run: () => '',
  });

  it('refuses --__proto__ and --constructor as unknown, polluting nothing', () => {
    for (const flag of ['--__proto__', '--constructor', '--__proto__=x', '--hasOwnProperty']) {
      expect(usageError(() => loose.parse([flag, '{"polluted":true}'])).message).toMatch(
        /^unknown option --(__proto__|constructor|hasOwnProperty); expected one of --port, --tags, --help$/,
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('takes the last of a repeated flag and collects a repeatable one', () => {
    const repeated = Array.from({ length: 10_000 }, (_, i) => ['--port', String(i)]).flat();
    expect(loose.parse(repeated).input).toEqual({ port: 9999 });
    expect(loose.parse(['--tags', 'a', '--tags=b']).input).toEqual({ tags: ['a', 'b'] });
  });

  it('cuts an enormous unknown flag in the message', () => {
    const message = usageError(() => loose.parse([`--${'x'.repeat(100_000)}`])).message;
    expect(message.length).toBeLessThan(300);
  });
});
