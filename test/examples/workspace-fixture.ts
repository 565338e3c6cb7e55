/**
 * The folder the example workspace tools (examples/workspace) are tested on, shared by
 * test/examples/workspace.test.ts and test/hostile/workspace.test.ts: `outside`, a
 * temporary folder (its real path) holding `secret.txt` ("top secret"), and `root`, its
 * `workspace` subfolder, which each test file furnishes with its own files and links
 * before the tools are made over it. Removed after the file's tests.
 *
 * @example
 * ```ts
 * const ws = workspaceFixture('ws', (root, outside) => {
 *   symlinkSync(outside, join(root, 'escape'));
 * });
 * it('refuses the way out', async () => {
 *   await expect(ws.call('read_file', { path: 'escape/secret.txt' })).rejects.toThrow();
 * });
 * ```
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import { workspaceTools } from '../../examples/workspace/tools.ts';
import type { Tool } from '../../src/ai/tool/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';

export interface WorkspaceFixture {
  outside: string;
  root: string;
  /** The tools over `root` by name (set before the file's tests run). */
  tools: Record<string, Tool<any>>;
  /** Invokes one tool by name. */
  call(name: string, args: unknown): ReturnType<Tool<any>['invoke']>;
}

/** Makes the folders now; `furnish` adds a file's own entries before the tools are made. */
export function workspaceFixture(
  name: string,
  furnish: (root: string, outside: string) => void,
): WorkspaceFixture {
  const outside = realpathSync(tempDir(name));
  const root = join(outside, 'workspace');
  const fixture: WorkspaceFixture = {
    outside,
    root,
    tools: {},
    call: (tool, args) => fixture.tools[tool].invoke(args),
  };
  beforeAll(async () => {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'top secret');
    furnish(root, outside);
    fixture.tools = Object.fromEntries((await workspaceTools(root)).map((t) => [t.name, t]));
  });
  return fixture;
}
