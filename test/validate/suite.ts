/**
 * Where the official JSON Schema Test Suite lives for the tests that read it
 * (`../shared/conformance/json-schema-test-suite`, beside the repository), its case
 * shape, and its documents by URI. Not a test file: the conformance and differential
 * tests share it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The suite's folder. */
export const suiteRoot = resolve(
  import.meta.dirname,
  '../../../shared/conformance/json-schema-test-suite',
);

/** Whether the suite is there; without it the tests skip, except in CI (`CI=true`). */
export const suitePresent = existsSync(join(suiteRoot, 'tests'));

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
