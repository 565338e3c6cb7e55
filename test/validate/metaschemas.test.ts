/** The bundled metaschemas: `$ref`s to draft-07 and 2020-12 resolve with a plain `compile(schema)`. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/validate/index.ts';
import { type SuiteCase, suitePresent, suiteRoot } from './suite.ts';

describe('bundled metaschemas', () => {
  it('resolve a $ref to the 2020-12 metaschema without a registry', () => {
    const validator = compile({ $ref: 'https://json-schema.org/draft/2020-12/schema' });
    expect(validator.safeParse({ type: 'string', minLength: 1 }).success).toBe(true);
    expect(validator.safeParse({ minLength: -1 }).success).toBe(false);
    expect(validator.safeParse({ properties: { a: { type: 'nope' } } }).success).toBe(false);
  });

  it('resolve a $ref to the draft-07 metaschema without a registry', () => {
    const validator = compile({ $ref: 'http://json-schema.org/draft-07/schema#' });
    expect(validator.safeParse({ type: 'string', maxLength: 2 }).success).toBe(true);
    expect(validator.safeParse({ maxLength: 'two' }).success).toBe(false);
  });

  it('give way to a registry document of the same URI', () => {
    const validator = compile(
      { $ref: 'https://json-schema.org/draft/2020-12/schema' },
      { registry: { 'https://json-schema.org/draft/2020-12/schema': { type: 'number' } } },
    );
    expect(validator.safeParse(1).success).toBe(true);
    expect(validator.safeParse({}).success).toBe(false);
  });
});

describe.runIf(suitePresent)('suite cases that reference a metaschema, without a registry', () => {
  const cases: [string, string][] = [
    ['draft2020-12/defs.json', 'validate definition against metaschema'],
    ['draft2020-12/ref.json', 'remote ref, containing refs itself'],
    ['draft7/definitions.json', 'validate definition against metaschema'],
    ['draft7/ref.json', 'remote ref, containing refs itself'],
  ];
  it.each(cases)('%s: %s', (file, description) => {
    const all: SuiteCase[] = JSON.parse(readFileSync(join(suiteRoot, 'tests', file), 'utf8'));
    const suiteCase = all.find((candidate) => candidate.description === description);
    expect(suiteCase).toBeDefined();
    const validator = compile(suiteCase?.schema as object);
    for (const test of suiteCase?.tests ?? [])
      expect(validator.safeParse(test.data).success, test.description).toBe(test.valid);
  });
});
