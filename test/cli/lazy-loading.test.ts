/**
 * The built binary loads only what a command uses: no command for --help and
 * --version, one command's file for a command, and TypeScript loading (tsx) only for a
 * TypeScript module. A load hook in the child process lists every file it loads.
 * Needs `npm run build` first (`npm test` does it).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
// writeSync, not console.log: the hooks run on their own thread, whose buffered console
// output Node 24 may drop when the process exits.
const LOG_LOADS =
  'import { writeSync } from "node:fs"; export async function load(url, context, next) { if (url.startsWith("file:")) writeSync(1, "LOADED " + url + "\\n"); return next(url, context); }';
const hooks = `data:text/javascript,${encodeURIComponent(LOG_LOADS)}`;
const REGISTER = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register(${JSON.stringify(hooks)});`,
)}`;

/** The files `fino <args>` loads, relative to the package root. */
async function loadedBy(...args: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', REGISTER, join(root, 'bin/fino.js'), ...args],
    { cwd: import.meta.dirname },
  );
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('LOADED file://'))
    .map((line) => line.slice('LOADED file://'.length).replace(`${root}/`, ''));
}

describe('fino loads only what the command uses', { timeout: 60_000 }, () => {
  it.each([['--version'], ['--help']])(
    '%s loads no command, no task module, no tsx',
    async (flag) => {
      const loaded = await loadedBy(flag);
      expect(loaded).toContain('dist/cli/main.js');
      expect(
        loaded.filter((file) => /cli\/commands\/(?!index)|dist\/task\/|tsx|register/.test(file)),
      ).toEqual([]);
    },
  );

  it('a command loads its own file only', async () => {
    const loaded = await loadedBy('tools', 'fixtures/plain.js');
    expect(loaded).toContain('dist/cli/commands/tools.js');
    expect(
      loaded.filter((file) => /commands\/(run|mcp|sessions)|dist\/ai\/(mcp|session)/.test(file)),
    ).toEqual([]);
  });

  it('TypeScript loading starts only for a TypeScript module', async () => {
    const js = await loadedBy('run', 'fixtures/plain.js');
    expect(js).toContain('dist/register/hooks.js');
    expect(js.filter((file) => file.includes('node_modules/tsx/'))).toEqual([]);
    const ts = await loadedBy('run', 'fixtures/single.ts', '--a', '1', '--b', '2');
    expect(ts.some((file) => file.includes('node_modules/tsx/'))).toBe(true);
  });
});
