/**
 * Where `mcpClient()` keeps what OAuth gave it — tokens, the registered client, the PKCE
 * verifier — one JSON record per server: in memory, or in a file only its owner can read
 * (mode 0600). Decision 123.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeValue } from '../../../internal/describe-value.ts';

/** What is kept for one server (opaque to the store). */
export type OAuthRecord = Record<string, unknown>;

/** A pluggable store of OAuth records, by server URL. */
export interface TokenStore {
  load(server: string): Promise<OAuthRecord | undefined>;
  save(server: string, record: OAuthRecord): Promise<void>;
}

/**
 * Keeps records in memory, for this process only.
 *
 * @example
 * ```ts
 * import { memoryTokenStore } from 'fino:ai/mcp';
 *
 * const store = memoryTokenStore();
 * await store.save('http://127.0.0.1:3000/mcp', { tokens: { access_token: 't', token_type: 'Bearer' } });
 * console.log(await store.load('http://127.0.0.1:3000/mcp'));
 * ```
 */
export function memoryTokenStore(): TokenStore {
  const records = new Map<string, OAuthRecord>();
  return {
    load: async (server) => records.get(server),
    save: async (server, record) => {
      records.set(server, record);
    },
  };
}

/**
 * Keeps records in one JSON file, created with mode 0600 (and set to it on each write),
 * written to a temporary file and renamed so a crash never leaves half a file.
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
  const readAll = async (): Promise<Record<string, OAuthRecord>> => {
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
  };
  let writing: Promise<void> = Promise.resolve();
  return {
    load: async (server) => (await readAll())[server],
    save(server, record) {
      // Writes one after another, so two saves never interleave.
      writing = writing.then(async () => {
        const all = await readAll();
        all[server] = record;
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        const temporary = `${path}.${process.pid}.tmp`;
        await writeFile(temporary, JSON.stringify(all), { mode: 0o600 });
        await chmod(temporary, 0o600);
        await rename(temporary, path);
      });
      return writing;
    },
  };
}
