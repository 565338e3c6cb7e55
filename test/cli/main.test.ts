import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/index.ts';
import { cli } from './io.ts';

describe('fino', () => {
  it('lists every command with --help', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const command of commands) expect(help.stdout).toContain(command.name);
    expect(help.stdout).toMatch(/^Usage: fino \[--verbose\] <command>/);
  });

  it("prints a command's usage with <command> --help", async () => {
    expect((await cli(['tools', '--help'])).stdout).toMatch(/^Usage: fino tools <file>/);
    expect(await cli(['sessions', 'list', '--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Usage: fino sessions list \[options\]/),
    });
    expect(await cli(['mcp', 'tools.ts', '--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Usage: fino mcp <file>/),
    });
  });

  it('builds every command as a task: <command> --help is its help()', async () => {
    const io = {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      cwd: '.',
      env: {},
    };
    for (const entry of commands) {
      const command = (await entry.load()).task(io);
      expect(command.name).toBe(entry.name);
      expect(await cli([entry.name, '--help'])).toEqual({
        code: 0,
        stdout: `${command.help(`fino ${entry.name}`)}\n`,
        stderr: '',
      });
    }
  });

  it('prints the package version', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('exits 2 on an unknown command, an unknown option or none, in one format', async () => {
    expect(await cli(['serve'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'fino: unknown command "serve"; expected one of run, tools, mcp, sessions, workflows\nRun "fino --help" for usage.\n',
    });
    expect(await cli(['--bogus'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'fino: unknown option --bogus; expected a command (run, tools, mcp, sessions, workflows) or --help, --version, --verbose\nRun "fino --help" for usage.\n',
    });
    expect(await cli([])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'fino: missing command; expected one of run, tools, mcp, sessions, workflows\nRun "fino --help" for usage.\n',
    });
  });
});
