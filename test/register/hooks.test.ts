/**
 * `node --import fino/register` on TypeScript files outside an ES-module package: the
 * `fino:` specifiers resolve in every file, not only the entry point. Runs the built
 * hook (`npm run build` first; `npm test` does it) in a child process.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const register = pathToFileURL(join(import.meta.dirname, '../../dist/register/index.js')).href;
/** The tests' folders, removed after the file's tests. */
const folders = tempDir('register');

/** A temporary folder (no package.json anywhere above it) holding `files`. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(folders, 'test-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const run = (dir: string, file: string) =>
  promisify(execFile)(process.execPath, ['--import', register, file], { cwd: dir });

describe('fino/register in a folder without a package.json', { timeout: 60_000 }, () => {
  it('resolves fino: specifiers one import deep (a.ts → b.ts → fino:validate)', async () => {
    const dir = folder({
      'a.ts': "import { kind } from './b.ts';\nconsole.log(kind);\n",
      'b.ts':
        "import { v } from 'fino:validate';\nexport const kind: string = typeof v.string === 'function' ? 'valid' : 'invalid';\n",
    });
    expect(await run(dir, 'a.ts')).toEqual({ stdout: 'valid\n', stderr: '' });
  });

  it('resolves them in a single file, and two imports deep', async () => {
    const dir = folder({
      'one.ts': "import { v } from 'fino:validate';\nconsole.log(typeof v.object);\n",
      'a.ts': "import './b.ts';\n",
      'b.ts': "import { c } from './c.ts';\nconsole.log(c);\n",
      'c.ts': "import { task } from 'fino:task';\nexport const c = typeof task;\n",
    });
    expect((await run(dir, 'one.ts')).stdout).toBe('function\n');
    expect((await run(dir, 'a.ts')).stdout).toBe('function\n');
  });
});

describe('fino/register and fino run in a "type": "commonjs" package', { timeout: 60_000 }, () => {
  // What `npm init -y` writes (npm 11), run with the Node the suite runs on: .ci/run runs
  // it on Node 20 and on Node 24, where a `.ts` file's format is left to the loader, which
  // took it for CommonJS (`Cannot find module 'fino:validate'`, esbuild's "Top-level
  // await is currently not supported with the "cjs" output format").
  const project = () =>
    folder({
      'package.json': '{ "name": "app", "version": "1.0.0", "type": "commonjs" }\n',
      'tools.ts': [
        "import { tool } from 'fino:ai/tool';",
        "import { v } from 'fino:validate';",
        "const greeting = await Promise.resolve('Hello');",
        'export const greet = tool({',
        "  name: 'greet',",
        '  parameters: v.object({ name: v.string() }),',
        "  execute: ({ name }) => greeting + ', ' + name + '!',",
        '});',
        '',
      ].join('\n'),
      'app.ts':
        "import { greet } from './tools.ts';\nconsole.log((await greet.invoke({ name: 'Ada' })).content);\n",
    });

  it('runs a file with top-level await that imports fino: modules, one import deep', async () => {
    expect(await run(project(), 'app.ts')).toEqual({ stdout: 'Hello, Ada!\n', stderr: '' });
  });

  it('fino run loads the same module', async () => {
    const bin = join(import.meta.dirname, '../../bin/fino.js');
    const result = await promisify(execFile)(
      process.execPath,
      [bin, 'run', 'tools.ts', 'greet', '--name', 'Ada'],
      { cwd: project() },
    );
    expect(result).toEqual({ stdout: 'Hello, Ada!\n', stderr: '' });
  });
});
