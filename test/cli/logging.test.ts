import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const fixtures = join(import.meta.dirname, 'fixtures');

describe('fino run shows log messages', () => {
  it("writes a tool's ctx.log() lines to standard error, its result to standard output", async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(fixtures, 'run-cli.ts'), 'run', join(fixtures, 'logging.ts')],
      { cwd: fixtures },
    );
    expect(stdout).toBe('hello\n');
    expect(stderr).toBe('fino: info: looking up the name\nfino: warning: the name is a guess\n');
  });
});
