/**
 * Every decision record has the shape issue 11 asks for (decision 075): a title
 * `# NNN — Title`, then `Status: … · Date: YYYY-MM-DD · Supersedes: …`, and a
 * Rejected part naming the alternatives it chose against.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '..', '..', 'docs', 'decisions');
const HEADER = /^Status: [^·\n]+ · Date: \d{4}-\d{2}-\d{2} · Supersedes: [^\n]+$/;

/** What is wrong with one record's text, or an empty list. */
function problems(name: string, text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  const number = name.slice(0, 3);
  if (!lines[0].startsWith(`# ${number} — `))
    found.push(`${name}: expected the title "# ${number} — …"`);
  if (lines[1] !== '' || !HEADER.test(lines[2] ?? '')) {
    found.push(`${name}: expected line 3 "Status: … · Date: YYYY-MM-DD · Supersedes: …"`);
  }
  if (!/^(\*\*|## )?Rejected/m.test(text)) found.push(`${name}: expected a Rejected part`);
  return found;
}

describe('decision records', () => {
  it('each has a title, a Status · Date · Supersedes line and a Rejected part', () => {
    const names = readdirSync(dir).filter((name) => /^\d{3}-.*\.md$/.test(name));
    expect(names.length).toBeGreaterThan(50);
    const found = names.flatMap((name) => problems(name, readFileSync(join(dir, name), 'utf8')));
    expect(found, `\n${found.join('\n')}\n`).toEqual([]);
  });

  it('spots a record without the header or the Rejected part', () => {
    expect(problems('001-x.md', '# 001 — X\n\n**Decision.** y\n')).toEqual([
      '001-x.md: expected line 3 "Status: … · Date: YYYY-MM-DD · Supersedes: …"',
      '001-x.md: expected a Rejected part',
    ]);
  });
});
