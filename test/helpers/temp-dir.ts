/**
 * A temporary folder for the tests of one file (or one `describe`): created at once under
 * the system's temporary folder, removed with everything in it after those tests
 * (`afterAll`), so no test writes its own clean-up.
 *
 * @example
 * ```ts
 * const dir = tempDir('threads'); // e.g. /tmp/fino-threads-Ab12Cd
 * const store = sqliteStore(join(dir, 'sessions.db'));
 * ```
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** Creates `fino-<name>-XXXXXX` in the temporary folder; removed after the tests that made it. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fino-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
