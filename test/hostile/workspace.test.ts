/**
 * Hostile inputs to the example workspace tools (examples/workspace): files that lead
 * out of the folder by other ways than paths (hard links, symbolic links on the way),
 * files that would block the server (FIFOs, devices), and files too large to return.
 */
import { execFileSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceFixture } from '../examples/workspace-fixture.ts';

const { outside, root, call } = workspaceFixture('ws-hostile', (root, outside) => {
  mkdirSync(join(root, 'deep'), { recursive: true });
  linkSync(join(outside, 'secret.txt'), join(root, 'linked.txt'));
  symlinkSync(outside, join(root, 'up'));
  symlinkSync(join(root, 'up'), join(root, 'deep', 'via-link'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
});
const secretIntact = () =>
  expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');

describe('hard links', () => {
  it('read_file refuses a file with more than one link, naming it and saying why', async () => {
    const result = await call('read_file', { path: 'linked.txt' });
    expect(result).toEqual({
      content:
        'Refused: "linked.txt" has 2 hard links; a hard-linked file may be the same file as one outside the workspace, so it is not read or written.',
      isError: true,
    });
  });

  it('write_file refuses it too, and the file outside keeps its content', async () => {
    const result = await call('write_file', { path: 'linked.txt', content: 'pwned' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"linked.txt" has 2 hard links/);
    secretIntact();
  });

  it('search_text skips it and says so', async () => {
    const result = await call('search_text', { query: 'secret' });
    expect(result.content).toBe(
      'No line contains "secret".\nSkipped 1 hard-linked file(s), which may be files outside the workspace: linked.txt',
    );
  });
});

describe('symbolic links on the way', () => {
  it.each([
    ['read_file', { path: 'deep/via-link/secret.txt' }],
    ['write_file', { path: 'deep/via-link/secret.txt', content: 'pwned' }],
    ['write_file', { path: 'deep/via-link/new/file.txt', content: 'x' }],
    ['list_files', { path: 'deep/via-link' }],
    ['remove_file', { path: 'deep/via-link/secret.txt' }],
  ])('%s refuses %j: a folder on the way is a link chain out', async (name, args) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/symbolic link that leads out of the workspace/);
    secretIntact();
    expect(readdirSync(outside).sort()).toEqual(['secret.txt', 'workspace']);
  });
});

describe('files that are not regular files', () => {
  it('read_file refuses a FIFO at once instead of blocking on it', async () => {
    const result = await call('read_file', { path: 'pipe' });
    expect(result).toEqual({
      content:
        'Refused: "pipe" is not a regular file (a FIFO, socket or device); only regular files can be read or written.',
      isError: true,
    });
  });

  it('write_file refuses to replace one', async () => {
    const result = await call('write_file', { path: 'pipe', content: 'x' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"pipe" is not a regular file/);
  });

  it('read_file and write_file answer that a folder is not a file, leaving no temporary file', async () => {
    const expected = { content: '"deep" is a folder, not a file.', isError: true };
    expect(await call('read_file', { path: 'deep' })).toEqual(expected);
    expect(await call('write_file', { path: 'deep', content: 'x' })).toEqual(expected);
    expect(readdirSync(root).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('search_text passes it by', async () => {
    writeFileSync(join(root, 'deep', 'note.txt'), 'a needle here');
    const result = await call('search_text', { query: 'needle' });
    expect(result.content).toMatch(/^deep\/note.txt:1: a needle here/);
  });
});

describe('huge files', () => {
  it('read_file returns the first 1 MiB and says the file was cut', async () => {
    writeFileSync(join(root, 'big.txt'), `${'é'.repeat(600_000)}THE END`);
    const result = await call('read_file', { path: 'big.txt' });
    const text = result.content as string;
    expect(text).toMatch(
      /\n\[truncated: "big.txt" is 1200007 bytes; read_file returns the first 1048576\]$/,
    );
    const head = text.slice(0, text.lastIndexOf('\n['));
    // 1 MiB is 524 288 two-byte characters exactly; nothing past it, nothing mangled.
    expect(head).toBe('é'.repeat(524_288));
  });

  it('read_file cuts a character split at the limit instead of mangling it', async () => {
    writeFileSync(join(root, 'odd.txt'), `x${'é'.repeat(600_000)}`);
    const text = (await call('read_file', { path: 'odd.txt' })).content as string;
    expect(text.slice(0, text.lastIndexOf('\n['))).toBe(`x${'é'.repeat(524_287)}`);
  });

  it('read_file refuses an image it cannot return whole', async () => {
    writeFileSync(join(root, 'huge.png'), Buffer.alloc(2 * 1024 * 1024));
    const result = await call('read_file', { path: 'huge.png' });
    expect(result).toEqual({
      content:
        'Refused: "huge.png" is an image of 2097152 bytes; read_file returns images up to 1048576 bytes.',
      isError: true,
    });
  });
});
