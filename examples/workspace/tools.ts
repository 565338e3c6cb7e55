/**
 * The workspace tool set: list, read, search, write and remove files in one folder,
 * every path confined to it. Read-only tools declare `sideEffects: false`; removing a
 * file is destructive and needs a human's approval.
 */
import { mkdir, readdir, realpath, rm, stat } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { type Tool, tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import { writeAtomically } from './atomic-write.ts';
import { confine, toWorkspacePath, WorkspacePathError } from './confine.ts';
import { readRegularFile } from './read-regular.ts';

/** Most bytes `read_file` returns (the rest is cut, and it says so), and largest file `search_text` looks into. */
const MAX_FILE_BYTES = 1024 * 1024;
/** Most matches `search_text` reports, and entries `list_files` shows. */
const MAX_RESULTS = 200;

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

const relativePath = (what: string) =>
  v.string().min(1).describe(`${what}, relative to the workspace root (e.g. "notes/todo.md")`);

/**
 * The five workspace tools over `root` (a folder that must exist).
 *
 * @example
 * ```ts
 * import { workspaceTools } from './examples/workspace/tools.ts';
 *
 * const tools = await workspaceTools('/tmp/my-workspace');
 * const list = tools.find((t) => t.name === 'list_files')!;
 * await list.invoke({ path: '.' });
 * ```
 */
export async function workspaceTools(root: string): Promise<Tool<any>[]> {
  const base = await realpath(root);
  /** Runs `body` on the confined path; a refused path is an `isError` result. */
  const within = async (path: string, body: (absolute: string) => Promise<string>) => {
    try {
      return { content: await body(await confine(base, path)) };
    } catch (error) {
      if (error instanceof WorkspacePathError)
        return { content: `Refused: ${error.message}.`, isError: true };
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        return { content: `"${path}" does not exist in the workspace.`, isError: true };
      if (code === 'EISDIR')
        return { content: `"${path}" is a folder, not a file.`, isError: true };
      if (code === 'ENOTDIR')
        return { content: `"${path}" is a file, not a folder.`, isError: true };
      throw error;
    }
  };

  const listFiles = tool({
    name: 'list_files',
    title: 'List files',
    description:
      'List the files and folders in a workspace folder. Folders end with "/". Set recursive to include sub-folders.',
    parameters: v.object({
      path: relativePath('The folder to list').default('.'),
      recursive: v.boolean().describe('Include everything below the folder').default(false),
    }),
    sideEffects: false,
    risk: 'low',
    execute: ({ path, recursive }) =>
      within(path, async (folder) => {
        const entries = await readdir(folder, { withFileTypes: true, recursive });
        const lines = entries
          .map((entry) => {
            const full = join(entry.parentPath, entry.name);
            return toWorkspacePath(base, full) + (entry.isDirectory() ? '/' : '');
          })
          .sort();
        if (lines.length === 0) return `${path} is empty.`;
        const shown = lines.slice(0, MAX_RESULTS).join('\n');
        return lines.length > MAX_RESULTS
          ? `${shown}\n… and ${lines.length - MAX_RESULTS} more; list a sub-folder to see them.`
          : shown;
      }),
  });

  const readFileTool = tool({
    name: 'read_file',
    title: 'Read a file',
    description:
      'Read a text file of the workspace (at most the first 1 MiB; longer files are cut, and the answer says so). Images (.png, .jpg, .gif, .webp) come back as images.',
    parameters: v.object({ path: relativePath('The file to read') }),
    sideEffects: false,
    risk: 'low',
    execute: async ({ path }) => {
      let image: { mediaType: string; data: string } | undefined;
      const result = await within(path, async (file) => {
        const { bytes, size } = await readRegularFile(path, file, MAX_FILE_BYTES);
        const mediaType = IMAGE_TYPES[extname(file).toLowerCase()];
        if (mediaType !== undefined) {
          if (size > bytes.length) {
            throw new WorkspacePathError(
              `"${path}" is an image of ${size} bytes; read_file returns images up to ${MAX_FILE_BYTES} bytes`,
            );
          }
          image = { mediaType, data: bytes.toString('base64') };
        }
        if (size === bytes.length) return bytes.toString('utf8');
        // `stream` holds back a character cut in half at the end instead of mangling it.
        const head = new TextDecoder().decode(bytes, { stream: true });
        return `${head}\n[truncated: "${path}" is ${size} bytes; read_file returns the first ${MAX_FILE_BYTES}]`;
      });
      if (image === undefined || result.isError) return result;
      return { content: [{ type: 'image' as const, ...image }] };
    },
  });

  const searchText = tool({
    name: 'search_text',
    title: 'Search text',
    description:
      'Find lines containing a text (case-insensitive) in the workspace files. Answers "path:line: text" per match.',
    parameters: v.object({
      query: v.string().min(1).describe('The text to look for'),
      path: relativePath('The folder to search').default('.'),
    }),
    sideEffects: false,
    risk: 'low',
    execute: ({ query, path }) =>
      within(path, async (folder) => {
        const needle = query.toLowerCase();
        const entries = await readdir(folder, { withFileTypes: true, recursive: true });
        const matches: string[] = [];
        const linked: string[] = [];
        for (const entry of entries) {
          if (!entry.isFile() || matches.length >= MAX_RESULTS) continue;
          const file = join(entry.parentPath, entry.name);
          const name = toWorkspacePath(base, file);
          const info = await stat(file);
          if (info.size > MAX_FILE_BYTES) continue;
          if (info.nlink > 1) {
            linked.push(name);
            continue;
          }
          const { bytes } = await readRegularFile(name, file, MAX_FILE_BYTES);
          const lines = bytes.toString('utf8').split('\n');
          lines.forEach((line, index) => {
            if (matches.length < MAX_RESULTS && line.toLowerCase().includes(needle)) {
              matches.push(`${name}:${index + 1}: ${line.trim()}`);
            }
          });
        }
        const skipped =
          linked.length === 0
            ? ''
            : `\nSkipped ${linked.length} hard-linked file(s), which may be files outside the workspace: ${linked.slice(0, 5).join(', ')}${linked.length > 5 ? ', …' : ''}`;
        if (matches.length === 0) return `No line contains "${query}".${skipped}`;
        return matches.join('\n') + skipped;
      }),
  });

  const writeFileTool = tool({
    name: 'write_file',
    title: 'Write a file',
    description:
      'Create or overwrite a text file of the workspace; missing folders are created. The file is replaced at once (never half written).',
    parameters: v.object({
      path: relativePath('The file to write'),
      content: v.string().describe('The whole new content of the file'),
    }),
    sideEffects: true,
    risk: 'medium',
    execute: ({ path, content }) =>
      within(path, async (file) => {
        await mkdir(dirname(file), { recursive: true });
        await writeAtomically(path, file, content);
        return `Wrote ${Buffer.byteLength(content)} bytes to ${toWorkspacePath(base, file)}.`;
      }),
  });

  const removeFile = tool({
    name: 'remove_file',
    title: 'Remove a file',
    description: 'Delete one file of the workspace. This cannot be undone.',
    parameters: v.object({ path: relativePath('The file to delete') }),
    sideEffects: true,
    risk: 'destructive',
    requiresApproval: true,
    execute: ({ path }) =>
      within(path, async (file) => {
        if ((await stat(file)).isDirectory()) {
          throw Object.assign(new Error('folder'), { code: 'EISDIR' });
        }
        await rm(file);
        return `Removed ${toWorkspacePath(base, file)}.`;
      }),
  });

  return [listFiles, readFileTool, searchText, writeFileTool, removeFile];
}
