/**
 * `fileTokenStore(path)`: OAuth records in one JSON file only its owner can read, shared
 * safely by every store and process that uses the file (decisions 123 and 182).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeValue } from '../../../internal/describe-value.ts';
import { withFileLock } from './file-lock.ts';
import { type OAuthRecord, serialQueue, type TokenStore } from './token-store.ts';

/**
 * Keeps records in one JSON file, created with mode 0600. Each save re-reads the file and
 * changes only its server's record, under a lock file (`<path>.lock`) that every store
 * on the file takes, so two clients — or two processes — never lose each other's
 * records; the new content goes to a temporary file of a random name, created
 * exclusively (never through a planted symlink), then renamed over the file.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { fileTokenStore } from 'fino:ai/mcp';
 *
 * const store = fileTokenStore(join(mkdtempSync(join(tmpdir(), 'fino-')), 'tokens.json'));
 * await store.save('https://mcp.example.com/mcp', { tokens: { access_token: 't', token_type: 'Bearer' } });
 * console.log(await store.load('https://mcp.example.com/mcp'));
 * ```
 */
export function fileTokenStore(path: string): TokenStore {
  if (typeof path !== 'string' || path === '') {
    throw new TypeError(
      `fileTokenStore: path: expected a file path, received ${describeValue(path)}`,
    );
  }
  const locked = lockedSections(path);
  return {
    load: async (server) => (await readRecords(path))[server],
    save: (server, record) =>
      locked(async () => {
        const all = await readRecords(path);
        all[server] = record;
        await replaceFile(path, JSON.stringify(all));
      }),
    exclusive: (_server, work) => locked(work),
  };
}

/**
 * Runs works under the file's lock, one at a time in this store; a work already holding
 * the lock (a save inside `exclusive`) runs at once instead of waiting for itself.
 */
function lockedSections(path: string): <T>(work: () => Promise<T>) => Promise<T> {
  const holding = new AsyncLocalStorage<boolean>();
  const queue = serialQueue();
  return (work) => {
    if (holding.getStore()) return work();
    return queue(async () => {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      return withFileLock(`${path}.lock`, () => holding.run(true, work));
    });
  };
}

async function readRecords(path: string): Promise<Record<string, OAuthRecord>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Object.create(null);
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(
      `fileTokenStore: ${path} does not hold a JSON object; delete it to log in again`,
    );
  }
  return Object.assign(Object.create(null), parsed);
}

/** Writes `text` to a new file of an unpredictable name (mode 0600), then renames it over `path`. */
async function replaceFile(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomBytes(12).toString('hex')}.tmp`;
  await writeFile(temporary, text, { flag: 'wx', mode: 0o600 });
  try {
    await chmod(temporary, 0o600); // exactly 0600, whatever the umask
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
