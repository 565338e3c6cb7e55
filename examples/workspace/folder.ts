/**
 * Which folder the workspace tools serve: `--dir`, else `FINO_WORKSPACE`, else a demo
 * folder `.fino/workspace` under the current directory, seeded with a few files the
 * first time.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The demo folder used when none is given. */
export const DEFAULT_WORKSPACE = '.fino/workspace';

const DEMO_FILES: Record<string, string> = {
  'README.md': "# Demo workspace\n\nServed by `npm start` through fino's MCP server.\n",
  'notes/todo.md': '- [ ] try list_files\n- [ ] search_text for "todo"\n- [ ] write a note\n',
  'notes/ideas.txt': 'A tool is defined once and served everywhere.\n',
};

/** Resolves the workspace folder, creating (and seeding) the default one when needed. */
export async function workspaceFolder(dir = process.env.FINO_WORKSPACE): Promise<string> {
  if (dir !== undefined && dir !== '') {
    const folder = resolve(dir);
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory())
      throw new Error(`The workspace folder "${folder}" does not exist or is not a folder`);
    return folder;
  }
  const folder = resolve(DEFAULT_WORKSPACE);
  const fresh = (await stat(folder).catch(() => undefined)) === undefined;
  await mkdir(folder, { recursive: true });
  if (fresh) {
    for (const [name, text] of Object.entries(DEMO_FILES)) {
      await mkdir(join(folder, name, '..'), { recursive: true });
      await writeFile(join(folder, name), text);
    }
  }
  return folder;
}
