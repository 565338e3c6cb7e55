import { describe, expect, it } from 'vitest';
import { cli } from './io.ts';

describe('fino run', () => {
  it('runs the named tool with flags parsed from its schema', async () => {
    expect(await cli(['run', 'fixtures/many.ts', 'get_weather', '--city', 'Lisbon'])).toEqual({
      code: 0,
      stdout: 'Sunny in Lisbon\n',
      stderr: '',
    });
  });

  it('takes the input as JSON, from the argument or stdin, with flags overriding it', async () => {
    const fromArg = await cli([
      'run',
      'fixtures/many.ts',
      'get_weather',
      '--input',
      '{"city":"Porto"}',
    ]);
    expect(fromArg.stdout).toBe('Sunny in Porto\n');
    const fromStdin = await cli(
      ['run', 'fixtures/many.ts', 'get_weather', '--input', '-', '--unit', 'c'],
      '{"city":"Faro","unit":"f"}',
    );
    expect(fromStdin.stdout).toBe('Sunny in Faro (c)\n');
  });

  it('prints JSON with --json for tasks that support it, and text otherwise', async () => {
    const json = await cli([
      'run',
      'fixtures/many.ts',
      'stats',
      '--words',
      'a',
      '--words',
      'b',
      '--json',
    ]);
    expect(JSON.parse(json.stdout)).toEqual({ count: 2 });
    const text = await cli(['run', 'fixtures/many.ts', 'stats', '--words', 'a']);
    expect(JSON.parse(text.stdout)).toEqual({ count: 1 });
  });

  it('streams what the task writes, then prints its result', async () => {
    expect((await cli(['run', 'fixtures/many.ts', 'streaming'])).stdout).toBe('line 1\nline 2\n');
  });

  it('exits 1 when the tool reports isError or throws', async () => {
    expect(await cli(['run', 'fixtures/many.ts', 'failing'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'no such city\n',
    });
    expect(await cli(['run', 'fixtures/many.ts', 'throwing'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'fino: disk full\nRun again with --verbose (or FINO_DEBUG=1) for the stack trace.\n',
    });
  });

  it('exits 2 with the flag, what was expected and a help hint on usage errors', async () => {
    const missing = await cli(['run', 'fixtures/many.ts', 'get_weather']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'fino: missing required option --city (a string value)\nRun "fino run fixtures/many.ts get_weather --help" for usage.\n',
    );
    const choice = await cli([
      'run',
      'fixtures/many.ts',
      'get_weather',
      '--city',
      'x',
      '--unit',
      'k',
    ]);
    expect(choice.code).toBe(2);
    expect(choice.stderr).toMatch(/^fino: --unit: expected one of c, f, received "k"/);
    const unknown = await cli(['run', 'fixtures/many.ts', 'get_weather', '--town', 'x']);
    expect(unknown.stderr).toMatch(
      /^fino: unknown option --town; expected one of --city, --unit, --help\n/,
    );
    const json = await cli(['run', 'fixtures/many.ts', 'get_weather', '--city', 'x', '--json']);
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/--json: "get_weather" supports only "text" output/);
    const badJson = await cli(['run', 'fixtures/many.ts', 'get_weather', '--input', '{']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/^fino: --input: expected JSON/);
  });

  it('exits 2 naming the available tools when the tool is unknown or not named', async () => {
    const unknown = await cli(['run', 'fixtures/many.ts', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /no tool named "nope"; available: get_weather, stats, failing, throwing, streaming, waiting/,
    );
    const unnamed = await cli(['run', 'fixtures/many.ts', '--city', 'x']);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(/several tools; name one of/);
    const empty = await cli(['run', 'fixtures/empty.ts']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/fixtures\/empty.ts exports no task or tool/);
  });

  it("prints the tool's generated help", async () => {
    const help = await cli(['run', 'fixtures/many.ts', 'get_weather', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: fino run fixtures/many.ts get_weather [options]');
    expect(help.stdout).toContain('--city <string>  City name (required)');
    expect(help.stdout).toContain('--unit <c|f>');
  });

  it('prints its own usage with --help, and exits 2 without a file', async () => {
    expect((await cli(['run', '--help'])).stdout).toMatch(/^Usage: fino run <file>/);
    const bare = await cli(['run']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe('fino: missing <file>\nRun "fino run --help" for usage.\n');
  });

  it('runs subcommands of a task, streaming JSON written through the writer', async () => {
    const result = await cli(['run', 'fixtures/calc.ts', 'add', '--n', '2', '--n', '3', '--json']);
    expect(result.code).toBe(0);
    const [written, ...output] = result.stdout.split('\n');
    expect(JSON.parse(written)).toEqual({ terms: 2 });
    expect(JSON.parse(output.join('\n'))).toEqual({ sum: 5 });
    const help = await cli(['run', 'fixtures/calc.ts', '--help']);
    expect(help.stdout).toMatch(/^Usage: fino run fixtures\/calc.ts \[command\] \[options\]/);
    expect(help.stdout).toContain('Commands:\n  add  Add numbers.');
    const childHelp = await cli(['run', 'fixtures/calc.ts', 'add', '--help']);
    expect(childHelp.stdout).toMatch(/^Usage: fino run fixtures\/calc.ts add \[options\]/);
  });

  it('aborts the tool on Ctrl-C and exits 130', async () => {
    const listeners = process.listenerCount('SIGINT');
    expect(await cli(['run', 'fixtures/many.ts', 'waiting'])).toEqual({
      code: 130,
      stdout: '',
      stderr: 'fino: interrupted\n',
    });
    expect(process.listenerCount('SIGINT')).toBe(listeners);
  });

  it('lists the tools of a module with several', async () => {
    const help = await cli(['run', 'fixtures/many.ts', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: fino run fixtures/many.ts <tool> [options]\n\nTools:\n');
    expect(help.stdout).toContain('  get_weather  Get current weather for a city.\n');
    expect(help.stdout).toContain('  stats        Count words.\n');
  });
});
