/**
 * fino's published types must not name `pg` or `better-sqlite3`: they are optional
 * peers, and a consumer without `@types/pg` would get TS7016 from any `.d.ts` that
 * imports them. Emits the declarations as the build does and reads them.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';

const repo = join(import.meta.dirname, '..', '..', '..');
const out = tempDir('dts');

it('no declaration of fino:ai/session imports a driver package', () => {
  execFileSync(
    join(repo, 'node_modules', '.bin', 'tsc'),
    ['-p', join(repo, 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', out],
    { cwd: repo, stdio: 'pipe' },
  );
  const folder = join(out, 'ai', 'session');
  const files = readdirSync(folder).filter((name) => name.endsWith('.d.ts'));
  expect(files).toContain('index.d.ts');
  const driverImport = /(from\s+|import\s*\(\s*|require\s*\(\s*)['"](pg|better-sqlite3)['"]/;
  const offenders = files.filter((name) =>
    driverImport.test(readFileSync(join(folder, name), 'utf8')),
  );
  expect(offenders).toEqual([]);
}, 120_000);
