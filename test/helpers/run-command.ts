/**
 * Runs a `fino` command in this process with captured output: what each command test
 * needs to check an exit code and what was printed, without a child process.
 *
 * @example
 * ```ts
 * const { code, out, err } = await runCommand(workflows, ['list', '--db', db], dir);
 * ```
 */
import { PassThrough } from 'node:stream';
import type { Command } from '../../src/cli/command.ts';

/** Runs `command` with `argv` in `cwd`; its exit code and everything it printed. */
export async function runCommand(
  command: Pick<Command, 'run'>,
  argv: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => {
    out += c;
  });
  stderr.on('data', (c) => {
    err += c;
  });
  const code = await command.run(argv, { stdin: new PassThrough(), stdout, stderr, cwd, env });
  return { code, out, err };
}
