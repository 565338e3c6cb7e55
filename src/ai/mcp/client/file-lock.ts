/**
 * One writer per file, across stores and processes: a lock file created exclusively next
 * to the file, refreshed while held, and taken over when its holder has died or stopped
 * refreshing it (decision 182).
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, readFile, rename, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/** How long a lock nobody refreshes stays valid (ms); a holder refreshes it every third of it. */
export const LOCK_STALE_MS = 10_000;

/** How long a waiter sleeps between attempts (ms, plus up to as much again, at random). */
const RETRY_MS = 15;

/** Runs `work` while holding the lock file `lockPath`; waits for a live holder to let go. */
export async function withFileLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const owner = `${process.pid} ${hostname()} ${randomBytes(8).toString('hex')}`;
  while (!(await tryCreate(lockPath, owner))) {
    await takeOverIfStale(lockPath);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS + Math.random() * RETRY_MS));
  }
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(lockPath, now, now).catch(() => undefined);
  }, LOCK_STALE_MS / 3);
  heartbeat.unref();
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
    await release(lockPath, owner);
  }
}

/** Creates the lock file unless it exists (`wx` never follows a symlink planted there). */
async function tryCreate(lockPath: string, owner: string): Promise<boolean> {
  try {
    await writeFile(lockPath, owner, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Removes a lock whose holder died or stopped refreshing it. The lock is first renamed
 * away and re-read, so a lock another waiter created in between is put back, not lost.
 */
async function takeOverIfStale(lockPath: string): Promise<void> {
  const seen = await readLock(lockPath);
  if (seen === undefined || !isStale(seen)) return;
  const aside = `${lockPath}.${randomBytes(8).toString('hex')}.stale`;
  try {
    await rename(lockPath, aside);
  } catch {
    return; // someone else took it over first
  }
  const taken = await readLock(aside);
  if (taken !== undefined && taken.owner !== seen.owner) {
    await link(aside, lockPath).catch(() => undefined); // a fresh lock: give it back
  }
  await unlink(aside).catch(() => undefined);
}

interface LockState {
  owner: string;
  refreshedAt: number;
}

async function readLock(path: string): Promise<LockState | undefined> {
  try {
    const stat = await lstat(path);
    const owner = stat.isFile() ? await readFile(path, 'utf8') : '';
    return { owner, refreshedAt: stat.mtimeMs };
  } catch {
    return undefined;
  }
}

/** A lock is stale when not refreshed in time, or when its holder on this host has exited. */
function isStale(lock: LockState): boolean {
  if (Date.now() - lock.refreshedAt > LOCK_STALE_MS) return true;
  const [pid, host] = lock.owner.split(' ');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Deletes the lock file if it is still this holder's. */
async function release(lockPath: string, owner: string): Promise<void> {
  const current = await readLock(lockPath);
  if (current?.owner === owner) await unlink(lockPath).catch(() => undefined);
}
