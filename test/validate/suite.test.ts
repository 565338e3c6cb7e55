/**
 * The JSON Schema Test Suite can be got from a clone: the skip message says where the
 * tests looked, which commit to check out and how, and the README says the same commit
 * (issue 32, item 20).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUITE_COMMIT, suiteMissing, suitePresent, suiteRoot } from './suite.ts';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('the JSON Schema Test Suite, from a clone', () => {
  it('the skip message names where it looked, the commit and the commands that get it', () => {
    const message = suiteMissing('the conformance tests are');
    expect(message).toContain(`not found at ${suiteRoot}: the conformance tests are skipped`);
    expect(message).toContain(
      `git clone https://github.com/json-schema-org/JSON-Schema-Test-Suite.git ${suiteRoot}`,
    );
    expect(message).toContain(`git -C ${suiteRoot} checkout ${SUITE_COMMIT}`);
    expect(message).toContain('FINO_JSON_SCHEMA_SUITE');
  });

  it('the README names the same commit and where to put the suite', () => {
    const section = /^## JSON Schema conformance\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
    expect(section).toContain(SUITE_COMMIT);
    expect(section).toContain(
      'git clone https://github.com/json-schema-org/JSON-Schema-Test-Suite.git',
    );
    expect(section).toContain('../shared/conformance/json-schema-test-suite');
    expect(section).toContain('FINO_JSON_SCHEMA_SUITE');
  });

  it.runIf(suitePresent && existsSync(join(suiteRoot, 'SOURCE.md')))(
    'the shared copy is the commit the README names',
    () => {
      expect(readFileSync(join(suiteRoot, 'SOURCE.md'), 'utf8')).toContain(SUITE_COMMIT);
    },
  );
});
