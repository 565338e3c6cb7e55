/** `Task.help()`: long option descriptions wrap at 80 columns; a child is listed by its first line. */
import { describe, expect, it } from 'vitest';
import { task } from '../../src/task/index.ts';
import { v } from '../../src/validate/index.ts';

describe('Task.help layout', () => {
  it('wraps a long description at 80 columns, continued under itself', () => {
    const long =
      'a SQLite file or a postgres:// URL, read from the environment when absent, else the default file in .fino';
    const help = task({
      name: 'open',
      inputSchema: v.object({ db: v.string().optional().describe(long) }),
      run: () => '',
    }).help();
    const lines = help.split('\n');
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    const start = lines.findIndex((line) => line.startsWith('  --db <string>  a SQLite'));
    expect(lines[start + 1]).toMatch(/^ {17}\S/);
    expect(
      lines
        .slice(start, start + 2)
        .map((l) => l.trim().replace(/^--db <string>\s+/, ''))
        .join(' '),
    ).toBe(long);
  });

  it("lists a child by its description's first line", () => {
    const child = task({
      name: 'serve',
      description: 'Serve it.\n\nAt length, on many lines.',
      run: () => '',
    });
    const help = task({ name: 'app', children: [child], run: () => '' }).help();
    expect(help.endsWith('Commands:\n  serve  Serve it.')).toBe(true);
  });
});
