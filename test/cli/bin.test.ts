/**
 * The `fino` binary end to end: built CLI, `fino:` specifiers and TypeScript user
 * files through the register hook. Needs `npm run build` first (`npm test` does it).
 */
import { execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const root = join(import.meta.dirname, '../..');

const approval = join(import.meta.dirname, 'fixtures/approval.ts');
/** The tests' folders, removed after the file's tests. */
const folders = tempDir('bin');

async function fino(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return finoIn(import.meta.dirname, {}, ...args);
}

async function finoIn(
  cwd: string,
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(root, 'bin/fino.js'), ...args],
      { cwd, env: { ...process.env, FINO_DEBUG: '', ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.concurrent('bin/fino.js', { timeout: 120_000 }, () => {
  it('runs a TypeScript tool that imports fino: specifiers', async () => {
    expect(await fino('run', 'fixtures/single.ts', '--a', '1', '--b', '2')).toEqual({
      code: 0,
      stdout: '3\n',
      stderr: '',
    });
  });

  it('runs a TypeScript ES module in a package without "type": "module"', async () => {
    expect(await fino('run', 'fixtures/commonjs-scope/weather.ts', '--city', 'Lisbon')).toEqual({
      code: 0,
      stdout: 'Sunny in Lisbon\n',
      stderr: '',
    });
  });

  it('says what to do when dist/ was never built (a git install), exit 1', async () => {
    const copy = mkdtempSync(join(folders, 'unbuilt-'));
    mkdirSync(join(copy, 'bin'));
    copyFileSync(join(root, 'bin/fino.js'), join(copy, 'bin/fino.js'));
    writeFileSync(join(copy, 'package.json'), JSON.stringify({ type: 'module' }));
    const { code, stderr } = await promisify(execFile)(
      process.execPath,
      [join(copy, 'bin/fino.js'), '--help'],
      { cwd: copy },
    ).then(
      (done) => ({ code: 0, stderr: done.stderr }),
      (failed: { code: number; stderr: string }) => failed,
    );
    expect(code).toBe(1);
    expect(stderr).toContain(`fino: ${join(copy, 'dist/cli/index.js')} is missing`);
    expect(stderr).toContain('Install fino from a tarball (npm pack in a clone) or the registry');
  });

  it('exits 2 with the help hint on a usage error', async () => {
    const result = await fino('run', 'fixtures/single.ts', '--a', 'one');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'fino: --a: expected a number value, received "one"\nRun "fino run fixtures/single.ts --help" for usage.\n',
    );
  });

  it('recognises tasks built by another copy of fino (the sources) and exits 1 on isError', async () => {
    const result = await fino('run', 'fixtures/many.ts', 'failing');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'no such city\n' });
  });

  it('prints tool definitions', async () => {
    const result = await fino('tools', 'fixtures/single.ts', '--format', 'anthropic');
    expect(JSON.parse(result.stdout)).toEqual([
      {
        name: 'add',
        description: 'Add two numbers.',
        input_schema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        },
      },
    ]);
  });

  it('refuses a tool that requires approval without a terminal (exit 3), and runs it with --yes', async () => {
    const dir = mkdtempSync(join(folders, 'test-'));
    writeFileSync(join(dir, 'victim.txt'), 'keep me');
    const refused = await finoIn(dir, {}, 'run', approval, 'remove_file', '--path', 'victim.txt');
    expect(refused).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'fino: remove_file (risk: destructive) requires approval, and there is no terminal to ask; it did not run\nPass --yes to approve it: fino run … --yes\n',
    });
    expect(existsSync(join(dir, 'victim.txt'))).toBe(true);
    const approved = await finoIn(
      dir,
      {},
      'run',
      approval,
      'remove_file',
      '--path',
      'victim.txt',
      '--yes',
    );
    expect(approved).toEqual({ code: 0, stdout: 'removed victim.txt\n', stderr: '' });
    expect(existsSync(join(dir, 'victim.txt'))).toBe(false);
  });

  it('exits 4 naming the question when a tool suspends without a terminal', async () => {
    const result = await fino('run', approval, 'ask_colour');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /^fino: ask_colour suspended and waits for an answer: Which colour\?\n/,
    );
  });

  it('keeps running a tool that awaits only its signal, until Ctrl-C (never exit 13)', async () => {
    const child = spawn(process.execPath, [join(root, 'bin/fino.js'), 'run', approval, 'idle'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve) =>
      child.stderr
        .on('data', (chunk) => {
          stderr += chunk;
          if (stderr.includes('idle: still waiting')) resolve();
        })
        .on('end', resolve),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toBe('idle: still waiting\nfino: interrupted\n');
  });

  it.each([
    [
      ['--bogus'],
      /^fino: unknown option --bogus; expected a command \(run, tools, mcp, sessions, workflows\)/,
    ],
    [
      ['serve'],
      /^fino: unknown command "serve"; expected one of run, tools, mcp, sessions, workflows\n/,
    ],
    [
      ['tools', 'fixtures/single.ts', '--bogus'],
      /^fino: unknown option --bogus; expected one of --format, --help\nRun "fino tools --help" for usage.\n$/,
    ],
    [
      ['tools', 'fixtures/single.ts', '--fromat', 'json'],
      /^fino: unknown option --fromat; did you mean --format\? expected one of --format, --help\nRun "fino tools --help" for usage.\n$/,
    ],
    [
      ['sessions', 'list', '--statsu', 'waiting'],
      /^fino: unknown option --statsu; did you mean --status\? expected one of --db, --status, --thread, --json, --help\nRun "fino sessions list --help" for usage.\n$/,
    ],
    [
      ['sessions', 'list', '--zzzzzz'],
      /^fino: unknown option --zzzzzz; expected one of --db, --status, --thread, --json, --help\nRun "fino sessions list --help" for usage.\n$/,
    ],
    [
      ['--verbos', 'tools'],
      /^fino: unknown option --verbos; did you mean --verbose\? expected a command/,
    ],
    [
      ['sesions', 'list'],
      /^fino: unknown command "sesions"; did you mean "sessions"\? expected one of run, tools, mcp, sessions, workflows\n/,
    ],
    [['run'], /^fino: missing <file>\nRun "fino run --help" for usage.\n$/],
  ])('reports %j as a usage error in one format, exit 2', async (argv, message) => {
    const result = await fino(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("names the missing module file, not fino's own loader", async () => {
    const result = await fino('run', 'fixtures/nope.ts');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `fino: no such file: ${join(import.meta.dirname, 'fixtures/nope.ts')}\nCheck the path of the module to load.\n`,
    );
  });

  it("prints no stack unless --verbose or FINO_DEBUG=1, which show the tool's own .ts line", async () => {
    const throwLine =
      readFileSync(approval, 'utf8')
        .split('\n')
        .findIndex((line) => line.includes("Error('the tool broke')")) + 1;
    const quiet = await fino('run', approval, 'broken');
    expect(quiet).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'fino: the tool broke\nRun again with --verbose (or FINO_DEBUG=1) for the stack trace.\n',
    });
    const verbose = await fino('--verbose', 'run', approval, 'broken');
    const debug = await finoIn(import.meta.dirname, { FINO_DEBUG: '1' }, 'run', approval, 'broken');
    for (const result of [verbose, debug]) {
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^fino: the tool broke\nError: the tool broke\n\s+at /);
      expect(result.stderr).toContain(`${approval}:${throwLine}:11`);
    }
  });

  it('prints its help and version without loading a command', async () => {
    expect((await fino('--help')).stdout).toMatch(/^Usage: fino \[--verbose\] <command>/);
    expect((await fino('--version')).code).toBe(0);
  });

  it('fino mcp --http on a busy port says which port and how to choose another, exit 1', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const result = await fino('mcp', 'fixtures/single.ts', '--http', `127.0.0.1:${port}`);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^fino: .*\\b${port}\\b.*in use.*\n.+\n$`));
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      busy.close();
    }
  });
});
