import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './temp-dir.ts';

let made = '';

describe('tempDir', () => {
  const dir = tempDir('temp-dir-test');
  made = dir;

  it('makes a new folder named after the test in the temporary folder', () => {
    expect(dirname(dir)).toBe(tmpdir());
    expect(basename(dir)).toMatch(/^fino-temp-dir-test-.{6}$/);
    expect(existsSync(dir)).toBe(true);
    writeFileSync(join(dir, 'left-behind.txt'), 'x');
  });
});

describe('after the tests that made it', () => {
  it('has removed it with what was in it', () => {
    expect(made).not.toBe('');
    expect(existsSync(made)).toBe(false);
  });
});
