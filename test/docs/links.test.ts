/**
 * Relative links of README.md and docs/*.md point at files of the repository. On the
 * registry page they resolve against the `repository` of package.json (decision 070),
 * so a broken one here is broken there too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The relative link targets of a Markdown text (without their `#fragment`), with line numbers. */
function relativeLinks(text: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  const withoutCode = text.replace(/^```[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ''));
  withoutCode.split('\n').forEach((content, i) => {
    for (const match of content.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1].split('#')[0];
      if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ target, line: i + 1 });
    }
  });
  return links;
}

describe('relative links in the documentation', () => {
  it('are found outside code blocks, without fragments or absolute URLs', () => {
    const text = '[a](docs/a.md#x) [b](https://x.y) [c](#top)\n```md\n[d](no.md)\n```\n[e](e/)';
    expect(relativeLinks(text)).toEqual([
      { target: 'docs/a.md', line: 1 },
      { target: 'e/', line: 5 },
    ]);
  });

  it('point at files that exist', () => {
    const files = [
      'README.md',
      ...readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    const broken = files.flatMap((file) =>
      relativeLinks(readFileSync(join(root, file), 'utf8'))
        .filter(({ target }) => !existsSync(join(root, dirname(file), target)))
        .map(({ target, line }) => `${file}:${line}: ${target}`),
    );
    expect(broken, broken.join('\n')).toEqual([]);
  });
});
