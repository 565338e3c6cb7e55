/**
 * The TypeScript snippets of the documentation: every fenced ```ts / ```typescript block
 * in README.md and docs/*.md, and every fenced block of an `@example` in a doc comment
 * under src/. Decision 069: each one is a complete program that type-checks on its own,
 * unless the line just before its fence is `<!-- not-checked: reason -->` (in a doc
 * comment too, after the ` * `). Decision 127: the Markdown ones also run, unless that
 * line is `<!-- not-run: reason -->` (a program that needs an outside service).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Snippet {
  /** The file it comes from, relative to the repository root (`docs/tool.md`). */
  file: string;
  /** The 1-based line of the file where the snippet's first code line sits. */
  line: number;
  /** The code, without the fence or the doc comment's ` * ` prefixes. */
  code: string;
  /** The marker's reason when the snippet is exempt from checking, else undefined. */
  notChecked?: string;
  /** The marker's reason when the snippet is type-checked but not run, else undefined. */
  notRun?: string;
  /**
   * The file name its first line gives it (`// tools.ts` → `tools.ts`): another snippet of
   * the same document may import it by that name.
   */
  name?: string;
}

const FENCE_OPEN = /^(\s*)```(ts|typescript)(?:\s.*)?$/;
const FENCE_CLOSE = /^\s*```\s*$/;
const MARKER = /^\s*<!--\s*(not-checked|not-run):(.*?)-->\s*$/;
/** A marker without a reason is an error: the reason is the point of the marker. */
const MARKER_LIKE = /<!--\s*not-(checked|run)/;
/** A first line naming the file: `// tools.ts` or `// tools.ts — what it holds`. */
const FILE_NAME = /^\/\/ ([\w.-]+\.[cm]?ts)(?:\s|$)/;

/**
 * The ts/typescript blocks of a list of lines. `prefix` is stripped from each line first
 * (the doc comment's ` * `); `lineOf` maps an index back to the file's 1-based line.
 */
function fencedBlocks(
  file: string,
  lines: readonly string[],
  lineOf: (index: number) => number,
): Snippet[] {
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    let end = i + 1;
    while (end < lines.length && !FENCE_CLOSE.test(lines[end])) end++;
    if (end === lines.length) {
      throw new Error(`${file}:${lineOf(i)}: the \`\`\`${open[2]} fence is never closed`);
    }
    const code = lines
      .slice(i + 1, end)
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    const before = i > 0 ? lines[i - 1] : '';
    const marker = MARKER.exec(before);
    if (!marker && MARKER_LIKE.test(before)) {
      throw new Error(
        `${file}:${lineOf(i - 1)}: expected \`<!-- not-checked: reason -->\` or \`<!-- not-run: reason -->\`, received ${JSON.stringify(before.trim())}`,
      );
    }
    const reason = marker?.[2].trim();
    if (marker && !reason) {
      throw new Error(`${file}:${lineOf(i - 1)}: a ${marker[1]} marker needs a reason`);
    }
    const name = FILE_NAME.exec(code)?.[1];
    snippets.push({
      file,
      line: lineOf(i + 1),
      code,
      ...(reason && marker?.[1] === 'not-checked' ? { notChecked: reason } : {}),
      ...(reason && marker?.[1] === 'not-run' ? { notRun: reason } : {}),
      ...(name ? { name } : {}),
    });
    i = end;
  }
  return snippets;
}

/** The ts blocks of a Markdown file. */
export function markdownSnippets(file: string, text: string): Snippet[] {
  return fencedBlocks(file, text.split('\n'), (i) => i + 1);
}

/** The fenced blocks inside the doc comments (`/** … *\/`) of a TypeScript source file. */
export function docCommentSnippets(file: string, text: string): Snippet[] {
  const lines = text.split('\n');
  const snippets: Snippet[] = [];
  for (let start = 0; start < lines.length; start++) {
    if (!/^\s*\/\*\*/.test(lines[start])) continue;
    let end = start;
    while (end < lines.length && !lines[end].includes('*/')) end++;
    const body = lines.slice(start, end + 1).map((l) =>
      l
        .replace(/^\s*\/\*\*\s?/, '')
        .replace(/\s*\*\/.*$/, '')
        .replace(/^\s*\* ?/, ''),
    );
    snippets.push(...fencedBlocks(file, body, (i) => start + i + 1));
    start = end;
  }
  return snippets;
}

/**
 * Where a snippet is written: `snippet-007.ts`, or for one that names itself (`// tools.ts`)
 * that name in a folder of its document's, where its siblings can import it.
 */
export function snippetPath(snippet: Snippet, index: number): string {
  if (snippet.name === undefined) return `snippet-${String(index).padStart(3, '0')}.ts`;
  return join(snippet.file.replace(/[^\w-]+/g, '_'), snippet.name);
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

/** Every snippet of the repository at `root`: README.md, docs/*.md, then src/**\/*.ts. */
export function allSnippets(root: string): Snippet[] {
  const read = (path: string) => readFileSync(path, 'utf8');
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(root, 'docs', name));
  const sources = walk(join(root, 'src'))
    .filter((path) => path.endsWith('.ts'))
    .sort();
  return [
    ...[join(root, 'README.md'), ...docs].flatMap((path) =>
      markdownSnippets(relative(root, path), read(path)),
    ),
    ...sources.flatMap((path) => docCommentSnippets(relative(root, path), read(path))),
  ];
}

/**
 * The tsconfig.json that type-checks `files` (snippets written out) against the sources
 * of the repository at `root`, as a user's project imports the package; `options` adds
 * compiler options (a React page's `jsx` and `lib`).
 */
export function snippetTsconfig(
  root: string,
  files: readonly string[],
  options: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    extends: join(root, 'tsconfig.json'),
    compilerOptions: {
      types: ['node'],
      paths: finoPaths(root),
      noEmit: true,
      allowImportingTsExtensions: true,
      rewriteRelativeImportExtensions: false,
      ...options,
    },
    files: [join(root, 'modules.d.ts'), ...files],
    include: [], // not the repository's own src, test, bench and examples
  });
}

/**
 * `fino/ai/tool` → src/ai/tool/index.ts, for every module the package at `root` exports:
 * the `paths` that type-check snippets against the sources (modules.d.ts maps `fino:`).
 */
function finoPaths(root: string): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const paths: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries<any>(manifest.exports)) {
    const types: unknown = target?.types;
    if (typeof types !== 'string' || !types.startsWith('./dist/')) continue;
    const source = types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts');
    paths[`fino/${subpath.slice(2)}`] = [join(root, source)];
  }
  return paths;
}
