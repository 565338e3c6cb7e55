/**
 * A module that calls its own isolated tool at its top level, run as a user runs it: the
 * docs' hard-cancellation example pasted into one file and run with
 * `node --import fino/register` (the built hook: `npm run build` first; `npm test` does
 * it). As written it finishes with its documented output; without its `isMainThread`
 * guard, the call fails with the re-entry error instead of starting workers without end.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const root = join(import.meta.dirname, '../..');
const register = pathToFileURL(join(root, 'dist/register/index.js')).href;
/** The runs' folders, removed after the file's tests. */
const runs = tempDir('reentry');

/** The first ```ts block under "## Hard cancellation" in docs/tool.md. */
function hardCancellationExample(): string {
  const guide = readFileSync(join(root, 'docs/tool.md'), 'utf8');
  const section = guide.slice(guide.indexOf('\n## Hard cancellation\n'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/tool.md: no ```ts block under "## Hard cancellation"');
  return block[1];
}

/** Runs `source` as one file in a fresh folder; a run that never ends is killed at 60 s. */
async function runAsOneFile(source: string): Promise<{ stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(runs, 'run-'));
  writeFileSync(join(dir, 'solve.ts'), source);
  return promisify(execFile)(process.execPath, ['--import', register, 'solve.ts'], {
    cwd: dir,
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
}

describe('an isolated tool called at the top level of its own module', { timeout: 90_000 }, () => {
  it("the docs' example, pasted into one file, prints its documented output and exits", async () => {
    const example = hardCancellationExample();
    const documented = /\n\/\/ (\{ content: .*\})\n$/.exec(example)?.[1];
    expect(documented).toBe(`{ content: 'Tool "solve" timed out after 2000 ms', isError: true }`);
    expect(await runAsOneFile(example)).toEqual({ stdout: `${documented}\n`, stderr: '' });
  });

  it('fails with a message naming what to move, instead of re-importing without end', async () => {
    const unguarded = hardCancellationExample().replace('if (isMainThread) ', '');
    expect(unguarded).toContain('\nconsole.log(await solve.invoke({ size: 100 }));');
    const { stdout, stderr } = await runAsOneFile(unguarded);
    expect(stderr).toBe('');
    expect(stdout).toContain(
      `content: 'Isolated task "solve" is called at the top level of file://`,
    );
    expect(stdout).toContain(
      'Move the call out of the module that defines the tools (define them in a module of their own and import it), or make it only in the main thread: if (isMainThread)',
    );
    expect(stdout).toContain('isError: true');
  });
});
