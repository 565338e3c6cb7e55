/**
 * Isolated tools in processes of their own: `fino run` through the built binary (needs
 * `npm run build` first; `npm test` does it) — a runaway tool ends with the timeout
 * error, and an idle worker does not keep the process alive after a successful call —
 * and a TypeScript program run with `node --import tsx`.
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
      { cwd: import.meta.dirname, env: { ...process.env, FINO_DEBUG: '' }, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.concurrent('fino run with isolated tools', { timeout: 120_000 }, () => {
  it('exits 1 with the timeout error when an isolated tool runs away', async () => {
    expect(await fino('run', 'fixtures/isolated-cli.ts', 'spin')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'fino: Tool "spin" timed out after 200 ms\nRun again with --verbose (or FINO_DEBUG=1) for the stack trace.\n',
    });
  });

  it('prints the result of an isolated tool and exits', async () => {
    expect(await fino('run', 'fixtures/isolated-cli.ts', 'greet', '--name', 'Ada')).toEqual({
      code: 0,
      stdout: 'Hello, Ada!\n',
      stderr: '',
    });
  });
});

describe('node --import tsx with isolated tools', { timeout: 120_000 }, () => {
  it('loads TypeScript in the workers and exits when the calls are done or aborted', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures/run-under-tsx.ts')],
      { cwd: root, timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toEqual([
      { content: '3' },
      { content: 'Tool "spin" timed out after 200 ms', isError: true },
      'AbortError',
    ]);
  });
});
