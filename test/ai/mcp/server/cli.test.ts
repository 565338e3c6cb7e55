/** `fino mcp`: argument handling and startup lines in process, HTTP serving through the binary. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CommandIo } from '../../../../src/cli/command.ts';
import { mcp } from '../../../../src/cli/commands/mcp.ts';
import { connectClient } from '../fixtures/clients.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/tools.ts', import.meta.url));

const TOOL_NAMES = ['add', 'ask', 'echo', 'fail', 'pixel', 'remove', 'slow'];
const toolNames = (line: string) => /\((.+?)\)/.exec(line)![1].split(', ').sort();

function fakeIo() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => {
    out += chunk;
  });
  const stderr = new PassThrough().on('data', (chunk) => {
    err += chunk;
  });
  const io: CommandIo = { stdin, stdout, stderr, cwd: root, env: {} };
  return { io, stdin, out: () => out, err: () => err };
}

describe('fino mcp arguments', () => {
  it.each([
    [[], /missing <file>/],
    [[fixture, '--http'], /--http is missing its value/],
    [[fixture, '--http', 'localhost'], /--http: expected \[host:\]port/],
    [[fixture, '--http', '99999'], /--http: expected \[host:\]port/],
    [
      [fixture, '--approval', 'sometimes'],
      /--approval: expected one of elicit, client, deny, received "sometimes"/,
    ],
    [[fixture, '--token', 't'], /--token applies to --http only/],
    [[fixture, '--verbose'], /unknown option --verbose/],
  ])('refuses %j with exit code 2 and says what was expected', async (argv, message) => {
    const { io, err } = fakeIo();
    expect(await mcp.run(argv, io)).toBe(2);
    expect(err()).toMatch(message);
  });

  it('prints its usage for --help', async () => {
    const { io, out } = fakeIo();
    expect(await mcp.run(['--help'], io)).toBe(0);
    expect(out()).toContain('Usage: fino mcp <file> [options]');
  });
});

describe('fino mcp over stdio', () => {
  it('names the transport and the tools on stderr, and ends when the client closes stdin', async () => {
    const { io, stdin, err, out } = fakeIo();
    const running = mcp.run([fixture], io);
    stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await waitFor(() => out().includes('"id":1'));
    stdin.end();
    expect(await running).toBe(0);
    expect(err()).toMatch(/^fino mcp: serving 7 tools \(.+\) over stdio\n$/);
    expect(toolNames(err())).toEqual(TOOL_NAMES);
    expect(JSON.parse(out().split('\n')[0]).result.serverInfo.name).toBe('tools');
  });
});

describe('fino mcp --http on a busy port', () => {
  it('says how to choose another port with its own flag (--http), never one it lacks', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const { io, err } = fakeIo();
      expect(await mcp.run([fixture, '--http', `127.0.0.1:${port}`], io)).toBe(1);
      expect(err()).toMatch(
        new RegExp(
          `^fino: listen: 127\\.0\\.0\\.1:${port} is already in use; choose another port with --http 127\\.0\\.0\\.1:${port + 1} \\(--http 127\\.0\\.0\\.1:0 picks a free one\\)\n`,
        ),
      );
      expect(err()).not.toMatch(/--port/);
    } finally {
      busy.close();
    }
  });
});

describe('fino mcp --http (the built binary)', () => {
  it('serves Streamable HTTP with a bearer token, announcing the URL on stderr', async () => {
    if (!existsSync(join(root, 'dist/cli/index.js'))) {
      throw new Error('dist/ is missing: run "npm run build" first (npm test does)');
    }
    const child = spawn(
      process.execPath,
      [join(root, 'bin/fino.js'), 'mcp', fixture, '--http', '127.0.0.1:0', '--token', 'tok'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    try {
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk) => {
        stderr += chunk;
      });
      await waitFor(() => stderr.includes('\n'), 20_000);
      expect(stderr).toMatch(
        /^fino mcp: serving 7 tools \(.+\) over Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp \(bearer token required\)\n$/,
      );
      expect(toolNames(stderr)).toEqual(TOOL_NAMES);
      const url = /(http:\S+)/.exec(stderr)![1];
      await expect(connectClient('v1', { url })).rejects.toThrow();
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer tok',
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      });
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
