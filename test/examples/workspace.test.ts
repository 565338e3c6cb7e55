import { spawn } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectClient } from '../ai/mcp/fixtures/clients.ts';
import { workspaceFixture } from './workspace-fixture.ts';

const ws = workspaceFixture('ws', (root, outside) => {
  mkdirSync(join(root, 'notes'), { recursive: true });
  writeFileSync(join(root, 'notes/todo.md'), '- buy milk\n- call Ada\n');
  writeFileSync(join(root, 'README.md'), '# Notes\nTODO: tidy up\n');
  symlinkSync(outside, join(root, 'escape'));
  symlinkSync(join(outside, 'nowhere.txt'), join(root, 'dangling'));
  symlinkSync(join(root, 'notes'), join(root, 'notes-link'));
});
const { outside, root, call } = ws;

describe('the workspace tools', () => {
  it('declare read-only, side-effecting and destructive behaviour', () => {
    expect(Object.keys(ws.tools)).toEqual([
      'list_files',
      'read_file',
      'search_text',
      'write_file',
      'remove_file',
    ]);
    for (const name of ['list_files', 'read_file', 'search_text'])
      expect(ws.tools[name].sideEffects).toBe(false);
    expect(ws.tools.write_file).toMatchObject({ sideEffects: true, requiresApproval: false });
    expect(ws.tools.remove_file).toMatchObject({
      sideEffects: true,
      risk: 'destructive',
      requiresApproval: true,
    });
  });

  it('list, read and search files', async () => {
    expect((await call('list_files', {})).content).toBe(
      ['README.md', 'dangling', 'escape', 'notes-link', 'notes/'].join('\n'),
    );
    expect((await call('list_files', { path: 'notes' })).content).toBe('notes/todo.md');
    expect(await call('read_file', { path: 'notes/todo.md' })).toEqual({
      content: '- buy milk\n- call Ada\n',
    });
    expect((await call('search_text', { query: 'todo' })).content).toBe(
      'README.md:2: TODO: tidy up',
    );
    expect((await call('search_text', { query: 'ada', path: 'notes' })).content).toBe(
      'notes/todo.md:2: - call Ada',
    );
  });

  it('write and remove files', async () => {
    expect((await call('write_file', { path: 'drafts/a.txt', content: 'hello' })).content).toBe(
      'Wrote 5 bytes to drafts/a.txt.',
    );
    expect(readFileSync(join(root, 'drafts/a.txt'), 'utf8')).toBe('hello');
    expect((await call('remove_file', { path: 'drafts/a.txt' })).content).toBe(
      'Removed drafts/a.txt.',
    );
    expect(await call('remove_file', { path: 'drafts/a.txt' })).toEqual({
      content: '"drafts/a.txt" does not exist in the workspace.',
      isError: true,
    });
    expect(await call('remove_file', { path: 'notes' })).toEqual({
      content: '"notes" is a folder, not a file.',
      isError: true,
    });
  });

  it('write atomically: 50 parallel writes of one path leave exactly one of them, and no temporary file', async () => {
    // Of many sizes (30 kB to 1.5 MB, several write chunks): unserialised writers in
    // place would leave a mix, or a short content followed by a longer one's tail.
    const contents = Array.from({ length: 50 }, (_, i) =>
      `${String(i).padStart(2, '0')}:`.repeat(10_000 * (((i * 37) % 50) + 1)),
    );
    const results = await Promise.all(
      contents.map((content) => call('write_file', { path: 'race/one.txt', content })),
    );
    for (const result of results) expect(result.isError).toBeUndefined();
    const final = readFileSync(join(root, 'race/one.txt'), 'utf8');
    expect(contents).toContain(final);
    expect(readdirSync(join(root, 'race'))).toEqual(['one.txt']);
  });

  it('write through a symbolic link inside the workspace to its target, keeping the link', async () => {
    writeFileSync(join(root, 'notes/target.md'), 'old');
    symlinkSync(join(root, 'notes/target.md'), join(root, 'target-link.md'));
    await call('write_file', { path: 'target-link.md', content: 'new' });
    expect(readFileSync(join(root, 'notes/target.md'), 'utf8')).toBe('new');
    expect(lstatSync(join(root, 'target-link.md')).isSymbolicLink()).toBe(true);
    rmSync(join(root, 'target-link.md'));
    rmSync(join(root, 'notes/target.md'));
  });

  it('follow symbolic links that stay inside the workspace', async () => {
    expect(await call('read_file', { path: 'notes-link/todo.md' })).toEqual({
      content: '- buy milk\n- call Ada\n',
    });
  });

  it.each([
    ['read_file', { path: '../secret.txt' }, /leaves the workspace/],
    ['read_file', { path: 'notes/../../secret.txt' }, /leaves the workspace/],
    ['read_file', { path: '/etc/passwd' }, /is absolute; give a path relative to the workspace/],
    ['read_file', { path: 'escape/secret.txt' }, /symbolic link that leads out of the workspace/],
    ['list_files', { path: 'escape' }, /symbolic link that leads out of the workspace/],
    ['write_file', { path: 'escape/new.txt', content: 'x' }, /symbolic link that leads out/],
    ['write_file', { path: 'dangling', content: 'x' }, /symbolic link to nothing/],
    ['remove_file', { path: '../secret.txt' }, /leaves the workspace/],
    ['search_text', { query: 'secret', path: 'escape' }, /symbolic link that leads out/],
  ])('%s refuses %j with a clear isError result', async (name, args, message) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Refused: /);
    expect(result.content).toMatch(message);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('answers invalid arguments with a repairable message', async () => {
    const result = await call('read_file', {});
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/Invalid arguments for "read_file"[\s\S]*path/);
  });
});

describe('npm start (examples/workspace.ts)', () => {
  it('serves the tools over Streamable HTTP and prints the URL and the client configuration', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('../../examples/workspace.ts', import.meta.url)),
        '--port',
        '0',
        '--dir',
        root,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        stdout += chunk;
      });
      await waitFor(() => stdout.includes('Ctrl+C'), 60_000);
      const url = /MCP endpoint \(Streamable HTTP\): (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(
        stdout,
      )![1];
      expect(stdout).toContain(`"url": "${url}"`);
      expect(stdout).toContain('"mcpServers"');
      expect(stdout).toContain('"type": "http"');
      expect(stdout.replace(/\s+/g, '')).toContain(`"mcp-remote","${url}"`);

      const client = await connectClient('v2 (2025 era)', { url }, (params) => ({
        action: params.message.includes('notes/todo.md') ? 'accept' : 'decline',
        content: { approve: true },
      }));
      const { tools: listed } = await client.listTools();
      expect(listed.find((t: any) => t.name === 'remove_file').annotations).toEqual({
        title: 'Remove a file',
        readOnlyHint: false,
        destructiveHint: true,
      });
      const listing = await client.callTool('list_files', { path: 'notes' });
      expect(listing.content).toEqual([{ type: 'text', text: 'notes/todo.md' }]);
      const declined = await client.callTool('remove_file', { path: 'README.md' });
      expect(declined.isError).toBe(true);
      expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('# Notes');
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
  }, 90_000);
});

describe('fino mcp examples/workspace/module.ts', () => {
  it('serves the workspace of FINO_WORKSPACE over stdio to an SDK client', async () => {
    const repo = fileURLToPath(new URL('../../', import.meta.url));
    const client = await connectClient('v1', {
      command: process.execPath,
      args: [join(repo, 'bin/fino.js'), 'mcp', join(repo, 'examples/workspace/module.ts')],
      env: { ...(process.env as Record<string, string>), FINO_WORKSPACE: root },
    });
    const { tools: listed } = await client.listTools();
    expect(listed.map((t: any) => t.name)).toEqual([
      'list_files',
      'read_file',
      'search_text',
      'write_file',
      'remove_file',
    ]);
    const read = await client.callTool('read_file', { path: 'notes/todo.md' });
    const refused = await client.callTool('read_file', { path: '../secret.txt' });
    await client.close();
    expect(read.content).toEqual([{ type: 'text', text: '- buy milk\n- call Ada\n' }]);
    expect(refused.isError).toBe(true);
  }, 60_000);
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
