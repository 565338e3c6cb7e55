/**
 * Docs that run (decision 127): every ```ts block of README.md and docs/*.md runs, each
 * as the file a user would paste it into, with `node --import fino/register <file>` in a
 * project of its own that has the package installed (a link to this repository's built
 * `dist/`, as `npm link` would make). Blocks that name themselves (`// tools.ts`) share a
 * folder with the other named blocks of their document, so one can import another.
 * Each run is time-boxed; a failure names the block's place and prints its output. A
 * block marked `<!-- not-run: reason -->` (it needs an outside service) is type-checked
 * by snippets.test.ts only, and listed here, with its reason, as skipped.
 *
 * Runs the built package: `dist/` is built first when it is missing or older than `src/`.
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { markdownSnippets, type Snippet, snippetPath } from './snippets.ts';

const root = join(import.meta.dirname, '..', '..');
/** How long one block may run: the slowest (isolated workers, SQLite) take a few seconds. */
const TIME_BOX_MS = 60_000;
/** Blocks run at once: each is a Node process loading TypeScript. */
const PARALLEL = 3;

const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const snippets: Snippet[] = documents.flatMap((file) =>
  markdownSnippets(file, readFileSync(join(root, file), 'utf8')),
);
const runnable = snippets.filter((s) => s.notChecked === undefined && s.notRun === undefined);
const notRun = snippets.filter((s) => s.notRun !== undefined);

/** The newest modification time under `dir`, in milliseconds (0 when it is missing). */
function newest(dir: string): number {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) time = Math.max(time, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return time;
}

/** The npm packages other than fino that `blocks` import (`@scope/name` or `name`). */
function importedPackages(blocks: readonly Snippet[]): Set<string> {
  const names = new Set<string>();
  for (const { code } of blocks) {
    for (const [, specifier] of code.matchAll(
      /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g,
    )) {
      if (/^(node:|fino[:/]|fino$|\.)/.test(specifier)) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  }
  return names;
}

/** The environment of a user's shell: none of the test runner's, and no provider keys. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(npm_|VITEST|TEST$|NODE_OPTIONS$|INIT_CWD$)/i.test(key) && !/_API_KEY$/.test(key),
  ),
) as Record<string, string>;

const project = tempDir('docs-run');
/** Unnamed blocks each get a folder of their own, so files they write never meet. */
const fileOf = (snippet: Snippet) => {
  const index = snippets.indexOf(snippet);
  const folder = snippet.name === undefined ? `${index}` : 'named';
  return join(project, folder, snippetPath(snippet, index));
};
let free = PARALLEL;
const queue: Array<() => void> = [];
/** Runs `job` when fewer than {@link PARALLEL} jobs run. */
async function limited<T>(job: () => Promise<T>): Promise<T> {
  if (free === 0) await new Promise<void>((resolve) => queue.push(resolve));
  else free--;
  try {
    return await job();
  } finally {
    const next = queue.shift();
    if (next) next();
    else free++;
  }
}

interface Outcome {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  output: string;
}

/** `node --import fino/register <file>` in the file's folder, stopped after the time box. */
const runFile = (file: string, timeout = TIME_BOX_MS) =>
  new Promise<Outcome>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'fino/register', file],
      { cwd: dirname(file), env, timeout, killSignal: 'SIGKILL', maxBuffer: 4 << 20 },
      (error, stdout, stderr) => {
        const failed = error as (Error & { code?: number; killed?: boolean }) | null;
        resolve({
          code: failed ? (typeof failed.code === 'number' ? failed.code : null) : 0,
          signal: child.signalCode,
          timedOut: failed?.killed === true,
          output: `${stdout}${stderr}`,
        });
      },
    );
    child.stdin?.end();
  });

beforeAll(() => {
  const built = newest(join(root, 'dist'));
  if (built === 0 || newest(join(root, 'src')) > built) {
    console.warn('test/docs/run: dist/ is missing or older than src/; building it (npm run build)');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  }
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'docs-run', private: true, type: 'module' }),
  );
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(root, join(project, 'node_modules', 'fino'), 'dir');
  // The other packages the blocks import (`@opentelemetry/api`, `zod`, …), as the user
  // who copies a block installs them: linked from the repository's devDependencies.
  for (const name of importedPackages(runnable)) {
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), link, 'dir');
  }
  for (const snippet of snippets) {
    if (snippet.notChecked !== undefined) continue;
    const path = fileOf(snippet);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${snippet.code}\n`);
  }
  if (notRun.length > 0) {
    console.warn(
      `\n*** test/docs/run: ${notRun.length} block(s) marked not-run (type-checked only):\n${notRun
        .map((s) => `    ${s.file}:${s.line}: ${s.notRun}`)
        .join('\n')}\n`,
    );
  }
}, 300_000);

describe('the documentation blocks, run as a user pastes them', () => {
  it('that name a file name a different one in each document', () => {
    const named = snippets.filter((s) => s.name !== undefined);
    const seen = new Map<string, Snippet>();
    const clashes: string[] = [];
    for (const snippet of named) {
      const key = snippetPath(snippet, 0);
      const first = seen.get(key);
      if (first)
        clashes.push(`${snippet.file}:${snippet.line} and :${first.line} are both ${snippet.name}`);
      else seen.set(key, snippet);
    }
    expect(clashes).toEqual([]);
  });

  it('are found, in README.md and in docs/', () => {
    expect(runnable.some((s) => s.file === 'README.md')).toBe(true);
    expect(runnable.some((s) => s.file.startsWith('docs/'))).toBe(true);
  });

  it('a block that throws, or never ends, fails with its output', async () => {
    const thrower = join(project, 'canary', 'throws.ts');
    const hanger = join(project, 'canary', 'hangs.ts');
    mkdirSync(dirname(thrower), { recursive: true });
    writeFileSync(
      thrower,
      "import { parse } from 'fino:validate';\nparse({ type: 'string' }, 42);\n",
    );
    writeFileSync(hanger, 'setInterval(() => {}, 1000);\n');
    const [threw, hung] = await Promise.all([runFile(thrower), runFile(hanger, 3_000)]);
    expect(threw.code).toBe(1);
    expect(threw.output).toContain('expected string, received number 42');
    expect(hung).toMatchObject({ code: null, timedOut: true });
  });

  for (const snippet of snippets) {
    const where = `${snippet.file}:${snippet.line}`;
    if (snippet.notChecked !== undefined) continue;
    if (snippet.notRun !== undefined) {
      it.skip(`${where} (not run: ${snippet.notRun})`, () => {});
      continue;
    }
    it.concurrent(
      `${where} runs to its end`,
      async () => {
        const file = fileOf(snippet);
        const outcome = await limited(() => runFile(file));
        const how = outcome.timedOut
          ? `did not finish within ${TIME_BOX_MS} ms`
          : `exited with ${outcome.code ?? outcome.signal}`;
        expect(
          outcome.code,
          `${where}: \`node --import fino/register ${file}\` ${how}:\n${outcome.output}`,
        ).toBe(0);
      },
      TIME_BOX_MS + 30_000,
    );
  }
});
