import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/index.ts';
import { cli } from './io.ts';

describe('fino', () => {
  it('lists every command with --help', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const command of commands) expect(help.stdout).toContain(command.name);
    expect(help.stdout).toMatch(/^Usage: fino <command>/);
  });

  it("prints a command's usage with <command> --help", async () => {
    expect((await cli(['tools', '--help'])).stdout).toMatch(/^Usage: fino tools <file>/);
  });

  it('prints the package version', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('exits 2 on an unknown command or none', async () => {
    const unknown = await cli(['serve']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "serve"; expected one of run, tools/);
    expect((await cli([])).code).toBe(2);
  });
});
