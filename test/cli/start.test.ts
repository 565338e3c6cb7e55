/**
 * `npm start` (examples/workspace.ts) reports problems like every fino command:
 * `fino: <message>` and a hint line, exit 2 for a wrong command line, 1 for a failure,
 * no stack trace unless asked.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const root = join(import.meta.dirname, '../..');
/** The workspaces `npm start` serves, removed after the file's tests. */
const workspaces = tempDir('start');

async function start(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(root, 'examples/workspace.ts'), ...args],
      { cwd: root, env: { ...process.env, FINO_DEBUG: '', PORT: '', ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const HINT = 'Run "npm start -- --help" for usage.\n';

describe('npm start', { timeout: 60_000 }, () => {
  it('prints its usage with --help', async () => {
    const help = await start(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm start -- \[--dir <folder>\]/);
  });

  it.each([
    [['--bogus'], /^fino: Unknown option '--bogus'/],
    [['--dir'], /^fino: Option '--dir <value>' argument missing/],
    [['--port', 'x'], /^fino: --port: expected a port number from 0 to 65535, received "x"\n/],
    [
      ['--approval', 'sometimes'],
      /^fino: --approval: expected one of elicit, client, deny, received "sometimes"\n/,
    ],
  ])('exits 2 on %j with the message and the help hint', async (args, message) => {
    const result = await start(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.endsWith(HINT)).toBe(true);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 naming a missing folder, with the stack only when asked', async () => {
    const quiet = await start(['--dir', join(root, 'no-such-folder')]);
    expect(quiet).toEqual({
      code: 1,
      stdout: '',
      stderr: `fino: The workspace folder "${join(root, 'no-such-folder')}" does not exist or is not a folder\nRun again with --verbose (or FINO_DEBUG=1) for the stack trace.\n`,
    });
    const verbose = await start(['--dir', join(root, 'no-such-folder'), '--verbose']);
    expect(verbose.stderr).toMatch(/\n\s+at .*examples\/workspace\/folder\.ts:\d+:\d+/);
  });

  it('exits 1 saying which port is busy and how to choose another', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const result = await start(['--dir', root, '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^fino: listen: 127\\.0\\.0\\.1:${port} is already in use; choose another port with --port ${port + 1} \\(--port 0 picks a free one\\)\n`,
        ),
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      busy.close();
    }
  });

  it('with --approval client, runs remove_file for a client that cannot ask its user', async () => {
    const dir = await mkdtemp(join(workspaces, 'workspace-'));
    await writeFile(join(dir, 'old.txt'), 'bye');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'examples/workspace.ts'),
        '--dir',
        dir,
        '--port',
        '0',
        '--approval',
        'client',
      ],
      { cwd: root, env: { ...process.env, FINO_DEBUG: '', PORT: '' } },
    );
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const found = /MCP endpoint \(Streamable HTTP\): (\S+)/.exec(out);
          if (found) resolve(found[1]);
        });
        child.once('exit', (code) => reject(new Error(`npm start exited ${code}: ${out}`)));
      });
      const client = new Client({ name: 'inspector-like', version: '1.0.0' }); // declares no elicitation
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const result: any = await client.callTool({
        name: 'remove_file',
        arguments: { path: 'old.txt' },
      });
      await client.close();
      expect(result.isError).toBeFalsy();
      expect(existsSync(join(dir, 'old.txt'))).toBe(false);
    } finally {
      child.kill();
    }
  });
});
