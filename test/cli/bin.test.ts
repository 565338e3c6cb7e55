/**
 * The `fino` binary end to end: built CLI, `fino:` specifiers and TypeScript user
 * files through the register hook. Needs `npm run build` first (`npm test` does it).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

async function fino(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(root, 'bin/fino.js'), ...args],
      { cwd: import.meta.dirname },
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

  it('exits 2 with the help hint on a usage error', async () => {
    const result = await fino('run', 'fixtures/single.ts', '--a', 'one');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'fino: --a expects a number value, got "one"\nRun "fino run fixtures/single.ts --help" for usage.\n',
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
});
