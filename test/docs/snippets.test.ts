/**
 * Docs that run (decision 069): every TypeScript snippet of README.md, docs/*.md and the
 * `@example`s under src/ is a complete program that type-checks on its own, importing
 * the `fino:` specifiers through modules.d.ts as a user's project does. One `tsc` run
 * checks them all; a failure names the snippet's file and line and the compiler message.
 * The README's snippets also run, from the packed package, in test/consumer.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { FINO_MODULES } from '../../src/register/index.ts';
import {
  allSnippets,
  docCommentSnippets,
  markdownSnippets,
  type Snippet,
  snippetPath,
  snippetTsconfig,
} from './snippets.ts';

const exec = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
/** Inside the repository so that @types/node and the compiler resolve as for the tests. */
const dir = join(root, 'node_modules', '.cache', 'fino-doc-snippets');

/**
 * The package-subpath imports (`'fino/ai/model'`) of modules that have a `fino:` specifier:
 * snippets import those as the specification writes them, `'fino:ai/model'` (decision
 * 075). `fino/register` and `fino/modules` have no `fino:` form and stay as they are.
 */
function subpathImports(code: string): string[] {
  const subpaths = new Set(Object.values(FINO_MODULES).map((folder) => `fino/${folder}`));
  return [...code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)(['"])(fino\/[^'"]+)\1/g)]
    .map((match) => match[2])
    .filter((specifier) => subpaths.has(specifier));
}

/** Does the code have a top-level import or export (is it an ES module already)? */
const isModule = (code: string) => /^\s*(import|export)\s/m.test(code);

/**
 * The snippet as a file of its own: an `@example` of a module that is not exported (under
 * src/cli, src/internal) imports it relatively, as a file beside it would, so relative
 * specifiers are made absolute from the source file's folder.
 */
function programText(snippet: Snippet): string {
  const code = snippet.file.startsWith('src/')
    ? snippet.code.replace(
        /(from\s+|import\s*\(\s*)(['"])(\.\.?\/[^'"]+)\2/g,
        (_, keyword: string, quote: string, specifier: string) =>
          `${keyword}${quote}${resolve(root, dirname(snippet.file), specifier)}${quote}`,
      )
    : snippet.code;
  return isModule(code) ? `${code}\n` : `${code}\nexport {};\n`;
}

interface CompilerError {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** Parses `file(line,col): error TS…: message` lines (and their continuation lines). */
function parseErrors(output: string): CompilerError[] {
  const errors: CompilerError[] = [];
  for (const text of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): (error TS\d+: .*)$/.exec(text);
    if (match) {
      errors.push({ file: match[1], line: +match[2], column: +match[3], message: match[4] });
    } else if (text.trim() && errors.length > 0) {
      errors[errors.length - 1].message += `\n    ${text.trim()}`;
    }
  }
  return errors;
}

/** Type-checks the snippets in one `tsc` run; returns one readable line per error. */
async function typeCheck(snippets: readonly Snippet[]): Promise<string[]> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const names = snippets.map((snippet, i) => {
    const name = snippetPath(snippet, i);
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), programText(snippet));
    return name;
  });
  writeFileSync(join(dir, 'tsconfig.json'), snippetTsconfig(root, names));
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const output = await exec(tsc, ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    (result) => result.stdout,
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
  );
  return parseErrors(output).map((error) => {
    const index = names.indexOf(relative(dir, resolve(dir, error.file)));
    if (index === -1) {
      const file = relative(root, resolve(dir, error.file)); // a module a snippet imports
      return `${file}:${error.line}:${error.column}: ${error.message}`;
    }
    const snippet = snippets[index];
    return `${snippet.file}:${snippet.line + error.line - 1}:${error.column}: ${error.message}`;
  });
}

describe('the snippet extractor', () => {
  it('finds ts and typescript fences with their first code line, and skips other languages', () => {
    const md = [
      '# T',
      '```ts',
      'const a = 1;',
      '```',
      '```sh',
      'ls',
      '```',
      '```typescript',
      'b;',
      '```',
    ];
    expect(markdownSnippets('x.md', md.join('\n'))).toEqual([
      { file: 'x.md', line: 3, code: 'const a = 1;' },
      { file: 'x.md', line: 9, code: 'b;' },
    ]);
  });

  it('honours a not-checked marker with a reason, and rejects one without', () => {
    const marked = ['<!-- not-checked: a fragment of the loop above -->', '```ts', 'x;', '```'];
    expect(markdownSnippets('x.md', marked.join('\n'))).toEqual([
      { file: 'x.md', line: 3, code: 'x;', notChecked: 'a fragment of the loop above' },
    ]);
    expect(() => markdownSnippets('x.md', '<!-- not-checked: -->\n```ts\nx;\n```')).toThrow(
      'x.md:1: a not-checked marker needs a reason',
    );
    expect(() => markdownSnippets('x.md', '<!-- not-checked -->\n```ts\nx;\n```')).toThrow(
      'x.md:1: expected `<!-- not-checked: reason -->`',
    );
  });

  it('honours a not-run marker with a reason, and names a snippet by its first line', () => {
    const marked = [
      '<!-- not-run: calls a real model -->',
      '```ts',
      '// tools.ts — the tools',
      'x;',
      '```',
    ];
    expect(markdownSnippets('x.md', marked.join('\n'))).toEqual([
      {
        file: 'x.md',
        line: 3,
        code: '// tools.ts — the tools\nx;',
        notRun: 'calls a real model',
        name: 'tools.ts',
      },
    ]);
    expect(() => markdownSnippets('x.md', '<!-- not-run:  -->\n```ts\nx;\n```')).toThrow(
      'x.md:1: a not-run marker needs a reason',
    );
    expect(() => markdownSnippets('x.md', '<!-- not-run -->\n```ts\nx;\n```')).toThrow(
      'x.md:1: expected `<!-- not-checked: reason -->` or `<!-- not-run: reason -->`',
    );
  });

  it('reads @example blocks out of doc comments, with the source line of their code', () => {
    const source = [
      'const x = 1;',
      '/**',
      ' * Does a thing.',
      ' * @example',
      ' * ```ts',
      " * import { v } from 'fino:validate';",
      ' *   v.string();',
      ' * ```',
      ' */',
    ].join('\n');
    expect(docCommentSnippets('src/a.ts', source)).toEqual([
      { file: 'src/a.ts', line: 6, code: "import { v } from 'fino:validate';\n  v.string();" },
    ]);
  });

  it('spots an import of a fino module by its package subpath, and only that', () => {
    const code = [
      "import { agent } from 'fino/ai/agent';",
      "import { v } from 'fino:validate';",
      "import 'fino/register';",
      "const { tool } = await import('fino/ai/tool');",
    ].join('\n');
    expect(subpathImports(code)).toEqual(['fino/ai/agent', 'fino/ai/tool']);
  });

  it('reports an unclosed fence with its place', () => {
    expect(() => markdownSnippets('x.md', 'a\n```ts\nx;')).toThrow(
      'x.md:2: the ```ts fence is never closed',
    );
  });
});

describe('the documentation snippets', () => {
  const snippets = allSnippets(root);
  /** A snippet with a known error, checked in the same run: proves errors are reported. */
  const canary: Snippet = {
    file: 'canary.md',
    line: 10,
    code: "import { v } from 'fino:validate';\nv.strin();",
  };
  let errors: string[] = [];
  beforeAll(async () => {
    errors = await typeCheck([...snippets.filter((s) => s.notChecked === undefined), canary]);
  }, 300_000);

  it('are found in README.md, docs/*.md and src/', () => {
    const files = new Set(snippets.map((s) => s.file));
    expect(files).toContain('README.md');
    expect([...files].some((f) => f.startsWith('docs/'))).toBe(true);
    expect([...files].some((f) => f.startsWith('src/'))).toBe(true);
  });

  it('a type error in a snippet is reported at its file and line', () => {
    const reported = errors.filter((error) => error.startsWith('canary.md:'));
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatch(/^canary\.md:11:3: error TS2551: Property 'strin' does not exist/);
  });

  it('import fino modules by their fino: specifiers, as the specification writes them', () => {
    const offending = snippets.flatMap((snippet) =>
      subpathImports(snippet.code).map(
        (specifier) =>
          `${snippet.file}:${snippet.line}: expected 'fino:${specifier.slice(5)}', received '${specifier}'`,
      ),
    );
    expect(offending, `\n${offending.join('\n')}\n`).toEqual([]);
  });

  it('all type-check, each on its own, except those marked not-checked', () => {
    const failures = errors.filter((error) => !error.startsWith('canary.md:'));
    expect(failures, `\n${failures.join('\n')}\n`).toEqual([]);
  });
});
