/**
 * Keeps every path inside the workspace folder: absolute paths, `..` that climbs out,
 * and symbolic links that lead out are refused with a message saying what to send instead.
 */
import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** A path the workspace refuses; the tool turns it into an `isError` result. */
export class WorkspacePathError extends Error {
  override readonly name = 'WorkspacePathError';
}

/**
 * The real location of `path` (relative to `root`, which must itself be a real path),
 * after checking that it and every symbolic link on the way stay inside `root`.
 * The target itself need not exist (for writes); its nearest existing ancestor is checked.
 */
export async function confine(root: string, path: string): Promise<string> {
  if (path.includes('\0')) throw new WorkspacePathError('the path contains a NUL character');
  if (isAbsolute(path) || /^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('~')) {
    throw new WorkspacePathError(
      `"${path}" is absolute; give a path relative to the workspace, like "notes/todo.md"`,
    );
  }
  const target = resolve(root, path);
  if (!isInside(root, target)) {
    throw new WorkspacePathError(`"${path}" leaves the workspace (".." climbs above its root)`);
  }
  const real = await realpathOfNearest(target);
  if (!isInside(root, real)) {
    throw new WorkspacePathError(
      `"${path}" goes through a symbolic link that leads out of the workspace`,
    );
  }
  return target;
}

/** Workspace-relative form of an absolute path inside `root`, with `/` separators. */
export function toWorkspacePath(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/') || '.';
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of `target`, or of its nearest existing ancestor with the rest appended. */
async function realpathOfNearest(target: string): Promise<string> {
  try {
    return await realpath(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const link = await lstat(target).catch(() => undefined);
    if (link?.isSymbolicLink()) {
      throw new WorkspacePathError(
        'the path is a symbolic link to nothing; it may lead out of the workspace',
      );
    }
    const parent = dirname(target);
    if (parent === target) return target;
    return resolve(await realpathOfNearest(parent), relative(parent, target));
  }
}
