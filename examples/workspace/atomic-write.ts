/**
 * Writes a workspace file so that readers and other writers never see it half written:
 * the content goes to a temporary file in the same folder, which is then renamed over
 * the target (atomic on POSIX file systems), and writers of one path take turns. The
 * rename replaces the target's name, so it never writes through a hard link into a file
 * elsewhere.
 */
import { randomBytes } from 'node:crypto';
import { realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkRegularFile } from './read-regular.ts';

/** The write in progress (or last queued) per real path: the next writer waits for it. */
const queues = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier writer of `key`; the queue entry goes once idle. */
function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const result = (queues.get(key) ?? Promise.resolve()).then(work);
  const tail = result.catch(() => {});
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return result;
}

/**
 * Replaces the content of `file` (whose folder exists) with `content`, atomically.
 * A symbolic link at `file` is followed (its target was confined by the caller); an
 * existing target must be a regular file with one link (`path` names it in messages).
 */
export async function writeAtomically(path: string, file: string, content: string): Promise<void> {
  const target = await realpath(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    return file;
  });
  const key = join(await realpath(dirname(target)), basename(target));
  await serialized(key, async () => {
    const existing = await stat(key).catch(() => undefined);
    if (existing?.isDirectory()) throw Object.assign(new Error('folder'), { code: 'EISDIR' });
    if (existing) checkRegularFile(path, existing);
    const temporary = join(dirname(key), `.${basename(key)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temporary, content, {
        flag: 'wx',
        mode: existing ? existing.mode & 0o777 : 0o666,
      });
      await rename(temporary, key);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  });
}
