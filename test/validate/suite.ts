/**
 * Where the official JSON Schema Test Suite lives for the tests that read it
 * (`../shared/conformance/json-schema-test-suite`, beside the repository), its case
 * shape, and its documents by URI. Not a test file: the conformance and differential
 * tests share it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

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
 * The documents `$ref`s may name, by URI: the suite's `remotes/` (served as
 * `http://localhost:1234/…`) and the draft-07 and 2020-12 metaschemas a few cases
 * reference, taken from Ajv's package (data files), since fino bundles no metaschemas.
 */
export function suiteDocuments(): Record<string, unknown> {
  const byUri: Record<string, unknown> = {};
  const remotes = join(suiteRoot, 'remotes');
  for (const file of jsonFiles(remotes)) {
    byUri[`http://localhost:1234/${relative(remotes, file).split('\\').join('/')}`] = JSON.parse(
      readFileSync(file, 'utf8'),
    );
  }
  const ajvRefs = dirname(
    createRequire(import.meta.url).resolve('ajv/dist/refs/json-schema-draft-07.json'),
  );
  for (const file of [
    join(ajvRefs, 'json-schema-draft-07.json'),
    ...jsonFiles(join(ajvRefs, 'json-schema-2020-12')),
  ]) {
    const document = JSON.parse(readFileSync(file, 'utf8'));
    byUri[document.$id] = document;
  }
  return byUri;
}
