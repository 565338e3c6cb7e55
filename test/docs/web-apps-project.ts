/**
 * docs/web-apps.md's blocks as a project of their own (decision 258): the named blocks
 * (`// chat.ts`, `// page.tsx`, …) written into a folder under `node_modules/.cache`, so
 * that `ai`, `hono`, `react` and `tsx` resolve as a user's installs, with a loader that
 * maps the `fino:` specifiers to this repository's src/ (no build) and runs TypeScript
 * and JSX; servers started from it as Node processes of their own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FINO_MODULES } from '../../src/register/index.ts';
import { markdownSnippets } from './snippets.ts';

const root = join(import.meta.dirname, '..', '..');
export const WEB_APPS_DOC = 'docs/web-apps.md';

/** The blocks of the page that name a file (`// chat.ts`), ts and tsx, by that name. */
export function webAppsBlocks(): Map<string, string> {
  const text = readFileSync(join(root, WEB_APPS_DOC), 'utf8');
  const blocks = new Map<string, string>();
  for (const snippet of markdownSnippets(WEB_APPS_DOC, text)) {
    if (snippet.name) blocks.set(snippet.name, snippet.code);
  }
  for (const [, code] of text.matchAll(/^```tsx\n([\s\S]*?)^```$/gm)) {
    const name = /^\/\/ ([\w.-]+\.tsx)\s/.exec(code)?.[1];
    if (name) blocks.set(name, code);
  }
  return blocks;
}

/** `fino:ai/ui` → src/ai/ui/index.ts: what `fino/register` does with dist/. */
const HOOKS = `const modules = ${JSON.stringify(
  Object.fromEntries(
    Object.entries(FINO_MODULES).map(([specifier, folder]) => [
      specifier,
      `file://${join(root, 'src', folder, 'index.ts')}`,
    ]),
  ),
)};
export async function resolve(specifier, context, next) {
  return next(Object.hasOwn(modules, specifier) ? modules[specifier] : specifier, context);
}
`;
const LOADER = `import { register } from 'node:module';
import { register as typeScript } from 'tsx/esm/api';
// The JSX of a React app (Next.js's setting): the automatic runtime, no React import.
typeScript({ tsconfig: new URL('./tsx.json', import.meta.url).pathname });
register('./fino-hooks.mjs', import.meta.url);
`;

/** A folder holding the page's blocks and `files` (name → code); `close()` removes it. */
export interface WebAppsProject {
  dir: string;
  /** The arguments of `node` that run `file` of the project with the loader. */
  nodeArgs(file: string): string[];
  /**
   * Runs `file` in a folder of its own, `cwd`, where its SQLite file is; resolves with
   * the chat's URL once the server prints `Chat on <url>`.
   */
  startServer(file: string): Promise<{ api: string; cwd: string }>;
  /** Kills the servers and removes the folder. */
  close(): void;
}

export function webAppsProject(name: string, files: Record<string, string>): WebAppsProject {
  const dir = join(root, 'node_modules', '.cache', `fino-${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'fino-hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'fino-loader.mjs'), LOADER);
  writeFileSync(join(dir, 'tsx.json'), '{ "compilerOptions": { "jsx": "react-jsx" } }\n');
  for (const [file, code] of [...webAppsBlocks(), ...Object.entries(files)]) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `${code}\n`);
  }
  const children: ChildProcess[] = [];
  const nodeArgs = (file: string) => ['--import', join(dir, 'fino-loader.mjs'), join(dir, file)];
  return {
    dir,
    nodeArgs,
    startServer(file) {
      const cwd = join(dir, `run-${file.replace(/\W/g, '_')}`);
      mkdirSync(cwd, { recursive: true });
      const child = spawn(process.execPath, nodeArgs(file), {
        cwd,
        env: { ...process.env, PORT: '0', DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let output = '';
      return new Promise((resolve, reject) => {
        const read = (chunk: Buffer) => {
          output += chunk;
          const url = /Chat on (http:\/\/localhost:\d+\/api\/chat)/.exec(output)?.[1];
          if (url) resolve({ api: url, cwd });
        };
        child.stdout?.on('data', read);
        child.stderr?.on('data', read);
        child.on('exit', (code) => reject(new Error(`${file} exited with ${code}:\n${output}`)));
      });
    },
    close() {
      for (const child of children) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
