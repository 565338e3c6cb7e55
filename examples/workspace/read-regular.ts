/**
 * Reads a workspace file without letting it reach outside the folder or hang the
 * server: only regular files with one link are read (a hard link would be a second
 * name of a file that may live outside the workspace), FIFOs and devices are refused
 * before they are opened (and the open itself never blocks), and at most `maxBytes`
 * are read, however large the file.
 */
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { WorkspacePathError } from './confine.ts';

/** The first bytes of a file, and the file's whole size. */
export interface FileHead {
  bytes: Buffer;
  size: number;
}

/**
 * Throws a {@link WorkspacePathError} naming `path` unless `info` is a regular file with
 * exactly one link.
 */
export function checkRegularFile(
  path: string,
  info: { isFile(): boolean; isDirectory(): boolean; nlink: number },
): void {
  if (info.isDirectory()) return; // the caller reports folders (EISDIR) itself
  if (!info.isFile()) {
    throw new WorkspacePathError(
      `"${path}" is not a regular file (a FIFO, socket or device); only regular files can be read or written`,
    );
  }
  if (info.nlink > 1) {
    throw new WorkspacePathError(
      `"${path}" has ${info.nlink} hard links; a hard-linked file may be the same file as one outside the workspace, so it is not read or written`,
    );
  }
}

/**
 * Reads up to `maxBytes` of the regular, singly linked file at `file` (`path` is the
 * name the caller gave, for messages). The file is checked before it is opened and
 * again through the open descriptor, so a swap in between is caught too.
 */
export async function readRegularFile(
  path: string,
  file: string,
  maxBytes: number,
): Promise<FileHead> {
  const before = await stat(file);
  if (before.isDirectory()) throw Object.assign(new Error('folder'), { code: 'EISDIR' });
  checkRegularFile(path, before);
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    checkRegularFile(path, info);
    const bytes = Buffer.alloc(Math.min(info.size, maxBytes));
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: bytes.subarray(0, filled), size: info.size };
  } finally {
    await handle.close();
  }
}
