/**
 * The official JSON Schema Test Suite: every required test of draft 2020-12 and draft-07,
 * the optional format tests of the formats fino asserts (with `formats: true`), and the
 * optional ECMAScript-regex and non-BMP-regex tests (patterns run on a linear-time engine:
 * docs/decisions/054).
 * Remote documents (`http://localhost:1234/…`) come from the suite's `remotes/` folder
 * through the registry; the metaschemas a few tests reference are fino's own bundled
 * copies (no registry entry), as a plain `compile(schema)` would find them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/validate/index.ts';
import {
  suiteRoot as root,
  type SuiteCase,
  suiteDocuments,
  suiteMissing,
  suitePresent,
} from './suite.ts';

const FORMATS = [
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'uuid',
  'json-pointer',
  'relative-json-pointer',
  'regex',
];

const counts: Record<string, { passed: number; total: number }> = {};

function runFile(
  label: string,
  file: string,
  formats: boolean,
  documents: Record<string, unknown>,
): void {
  const draft = label.startsWith('draft7') ? 'draft-07' : '2020-12';
  const cases: SuiteCase[] = JSON.parse(readFileSync(file, 'utf8'));
  counts[label] ??= { passed: 0, total: 0 };
  const count = counts[label];
  describe(relative(root, file), () => {
    for (const suiteCase of cases) {
      it(suiteCase.description, () => {
        const validator = compile(suiteCase.schema as object, {
          registry: documents,
          formats,
          draft,
        });
        const wrong: string[] = [];
        for (const test of suiteCase.tests) {
          count.total++;
          const result = validator.safeParse(test.data);
          if (result.success === test.valid) count.passed++;
          else wrong.push(`${test.description}: expected ${test.valid ? 'valid' : 'invalid'}`);
        }
        expect(wrong).toEqual([]);
      });
    }
  });
}

if (!suitePresent) {
  describe('JSON Schema Test Suite', () => {
    it('is present at ../shared/conformance/json-schema-test-suite', () => {
      console.log(suiteMissing('the conformance tests are'));
      expect(process.env.CI === 'true', 'the suite is required in CI').toBe(false);
    });
  });
} else {
  const documents = suiteDocuments();
  for (const draft of ['draft2020-12', 'draft7']) {
    const folder = join(root, 'tests', draft);
    for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.json'))) {
      runFile(draft, join(folder, name), false, documents);
    }
    for (const name of ['ecmascript-regex.json', 'non-bmp-regex.json']) {
      runFile(`${draft} regex`, join(folder, 'optional', name), false, documents);
    }
    for (const format of FORMATS) {
      const file = join(folder, 'optional', 'format', `${format}.json`);
      if (existsSync(file)) runFile(`${draft} formats`, file, true, documents);
    }
  }
  afterAll(() => {
    for (const [label, { passed, total }] of Object.entries(counts)) {
      console.log(`JSON Schema Test Suite ${label}: ${passed}/${total} passed`);
    }
  });
}
