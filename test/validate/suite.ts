/**
 * Where the official JSON Schema Test Suite lives for the tests that read it
 * (`../shared/conformance/json-schema-test-suite`, beside the repository, or
 * `$FINO_JSON_SCHEMA_SUITE`), which commit of it the README's counts come from, how to
 * get it, its case shape, and its documents by URI. Not a test file: the conformance and
 * differential tests share it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The commit of json-schema-org/JSON-Schema-Test-Suite the README's counts were taken at. */
export const SUITE_COMMIT = '44401e0c046704b476ec9d2e2fccdaee618f259d';

/** The suite's folder: `$FINO_JSON_SCHEMA_SUITE`, else `../shared/…` beside the repository. */
export const suiteRoot = resolve(
  process.env.FINO_JSON_SCHEMA_SUITE ||
    resolve(import.meta.dirname, '../../../shared/conformance/json-schema-test-suite'),
);

/** Whether the suite is there; without it the tests skip, except in CI (`CI=true`). */
export const suitePresent = existsSync(join(suiteRoot, 'tests'));

/** What a test that needs the missing suite prints: where it looked, and how to get it. */
export function suiteMissing(what: string): string {
  return [
    `JSON Schema Test Suite not found at ${suiteRoot}: ${what} skipped. To run it, get the suite at the commit the README's counts come from:`,
    `  git clone https://github.com/json-schema-org/JSON-Schema-Test-Suite.git ${suiteRoot}`,
    `  git -C ${suiteRoot} checkout ${SUITE_COMMIT}`,
    '(or set FINO_JSON_SCHEMA_SUITE to a copy elsewhere).',
  ].join('\n');
}

/** One test of a suite case. */
export interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}

/** One case of a suite file: a schema and the data it must accept or reject. */
export interface SuiteCase {
  description: string;
  schema: unknown;
  tests: SuiteTest[];
}

/** Every `.json` file below `folder`. */
export function jsonFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return jsonFiles(path);
    return entry.name.endsWith('.json') ? [path] : [];
  });
}

/**
 * The documents the suite's `$ref`s name, by URI: its `remotes/`, served as
 * `http://localhost:1234/…`. The metaschemas some cases reference are not here: fino
 * bundles them.
 */
export function suiteDocuments(): Record<string, unknown> {
  const byUri: Record<string, unknown> = {};
  const remotes = join(suiteRoot, 'remotes');
  for (const file of jsonFiles(remotes)) {
    byUri[`http://localhost:1234/${relative(remotes, file).split('\\').join('/')}`] = JSON.parse(
      readFileSync(file, 'utf8'),
    );
  }
  return byUri;
}
