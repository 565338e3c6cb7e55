/**
 * The package as a user gets it (decisions 070 and 130): `npm pack`, then the README's
 * "Use it in your project" steps, read from the README itself and run as written in an
 * empty folder outside the repository: its project commands (`npm init -y`, …, all but
 * the "only for" driver installs) as one shell script, its files (`tsconfig.json`,
 * `tools.ts`, `app.ts`) written by their names, then each of its last commands, checking
 * the output each one's `# prints:` comment announces. A second project, without
 * `"type": "module"` and installed with `--ignore-scripts`, checks that `fino run`,
 * `fino tools`, `fino mcp` and the examples work there too. The examples also type-check
 * strictly (no `skipLibCheck`) under TypeScript 5.9, and `fino mcp` is driven by the
 * official SDK client over stdio. A third project runs the workflow surfaces of issue 31
 * (schedules, queries and updates, streams, continue-as-new, exported and replayed
 * histories) on an SQLite store, type-checked the same way, and issue 28's chat handler
 * over HTTP. Packs the current dist/: needs `npm run build` first
 * (`npm test` does it; the test builds only when dist/ is missing). Skips with a message
 * when npm cannot run, and fails instead when `CI=true`.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownSnippets } from '../docs/snippets.ts';

const exec = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The environment without what `npm test` and Vitest set for the repository itself. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^npm_/i.test(key) && key !== 'NODE_OPTIONS' && key !== 'INIT_CWD',
  ),
) as Record<string, string>;

const npmCheck = spawnSync('npm', ['--version'], { env, encoding: 'utf8' });
const npmMissing =
  npmCheck.status === 0
    ? undefined
    : `npm cannot run (${npmCheck.error?.message ?? npmCheck.stderr})`;

/** Runs a command; a failure names the command, its folder, its exit code and output. */
async function run(cwd: string, command: string, args: string[], timeout = 120_000) {
  try {
    return await exec(command, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 });
  } catch (error: any) {
    throw new Error(
      `\`${[command, ...args].join(' ')}\` in ${cwd} failed (exit ${error.code}):\n${error.stdout ?? ''}${error.stderr ?? error.message}`,
    );
  }
}

/** The blocks of one language in `text` (the README by default), in order. */
function readmeBlocks(language: string, text = readme): string[] {
  const blocks: string[] = [];
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  for (const match of text.matchAll(fence)) blocks.push(match[1]);
  return blocks;
}

/** The README's "Use it in your project" section, up to the next `## ` heading. */
const usage = /^## Use it in your project\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';

/** A shell line of the README: the command, and its `# comment` if any. */
interface ShellLine {
  command: string;
  comment: string;
}
const shellLines = (block: string | undefined): ShellLine[] =>
  (block ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const at = line.search(/\s#\s/);
      return at === -1
        ? { command: line.trim(), comment: '' }
        : { command: line.slice(0, at).trim(), comment: line.slice(at).replace(/^\s#\s/, '') };
    });

/** The section's project commands (`npm init -y` …) and its last commands (`npx tsc` …). */
const usageShell = readmeBlocks('sh', usage);
const setupCommands = shellLines(usageShell.find((block) => block.includes('npm init -y')));
const lastCommands = shellLines(usageShell.find((block) => /^npx tsc\b/m.test(block)));
/** The folder the README's project commands make and enter (`mkdir weather && cd weather`). */
const projectName = /^mkdir (\S+) && cd \1$/m.exec(
  setupCommands.map((line) => line.command).join('\n'),
)?.[1];
/** The section's files, by the names their first lines give them. */
const usageFiles = markdownSnippets('README.md', usage).filter((s) => s.name !== undefined);

/** The README's TypeScript examples: `tools.ts` (first line `// tools.ts`), and programs. */
const examples = markdownSnippets('README.md', readme).filter((s) => s.notChecked === undefined);
const toolsModule = examples.find((s) => s.code.startsWith('// tools.ts\n'));
const programs = examples.filter((s) => s !== toolsModule);

/** The README's tsconfig.json for a project using fino. */
const readmeTsconfig = readmeBlocks('json')
  .map((text) => JSON.parse(text))
  .find((config) => config.compilerOptions?.types?.includes('fino/modules'));

/** The README's MCP client entry that starts `fino mcp` from an installed package. */
const readmeMcpEntry = readmeBlocks('json')
  .map((text) => JSON.parse(text))
  .flatMap((config) => Object.values<any>(config.mcpServers ?? {}))
  .find((server) => server.args?.[0]?.endsWith('node_modules/fino/bin/fino.js'));

/**
 * The README's project steps, as written, in an empty folder of `work`: its project
 * commands as one `sh -e` script (the tarball's path put in, the "only for" driver
 * installs left out), then its files by their names.
 */
async function followReadme(project: Project, tarball: string): Promise<void> {
  const script = setupCommands
    .filter((line) => !line.comment.startsWith('only for'))
    .map((line) => line.command.replace('/path/to/fino/fino-0.1.0.tgz', tarball))
    .join('\n');
  // npm's own settings, not the commands: reuse the cache, say less — but warnings, which
  // the install-scripts test reads.
  const npmQuiet = {
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_loglevel: 'warn',
  };
  const output = await exec('sh', ['-e', '-c', script], {
    cwd: work,
    env: { ...env, ...npmQuiet },
    timeout: 280_000,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: any) => {
    throw new Error(
      `the README's project commands failed (exit ${error.code}):\n${script}\n${error.stdout ?? ''}${error.stderr ?? error.message}`,
    );
  });
  readmeInstallOutput = `${output.stdout}${output.stderr}`;
  const manifestWritten = JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8'));
  expect(manifestWritten.type).toBe('module');
  writeFileSync(join(project.dir, 'tsconfig.json'), JSON.stringify(readmeTsconfig, null, 2));
  for (const [name, code] of fileNames()) writeFileSync(join(project.dir, name), code);
}

/** Created by the tests that run, outside the repository, and removed after them. */
const work = join(tmpdir(), `fino-consumer-${process.pid}-${Date.now().toString(36)}`);

interface Project {
  kind: 'module' | 'commonjs';
  dir: string;
}
const projects: Project[] = [
  // The README's own project: its folder name is the README's.
  { kind: 'module', dir: join(work, projectName ?? 'readme-project') },
  { kind: 'commonjs', dir: join(work, 'cjs-project') },
];
/** The README's other programs (not its named files), as `readme-<i>.ts` beside them. */
const otherPrograms = programs.filter((program) => program.name === undefined);
/** The README's ts blocks by the file each is written to in a project. */
const fileNames = (): Array<[string, string]> => [
  ...[toolsModule!, ...programs]
    .filter((example) => example.name !== undefined)
    .map((example): [string, string] => [example.name!, example.code]),
  ...otherPrograms.map((program, i): [string, string] => [`readme-${i}.ts`, program.code]),
];
let packedFiles: string[] = [];
/** The packed tarball, for the projects a test makes of its own. */
let packedTarball = '';
/** What the README's project commands printed, npm's warnings included. */
let readmeInstallOutput = '';

const compilers: Record<string, string> = {
  '5.9': join(root, 'node_modules', 'typescript-5.9', 'bin', 'tsc'),
};

/**
 * Type-checks the README's examples in a project with the README's tsconfig.json and the
 * TypeScript `version` of the repository's devDependencies; rejects with the compiler's
 * messages.
 */
async function typeCheck(project: Project, version: string): Promise<void> {
  const dir = join(project.dir, `typecheck-${version}`);
  mkdirSync(dir, { recursive: true });
  const files = fileNames().map(([name, code]) => {
    writeFileSync(join(dir, name), code);
    return name;
  });
  expect(readmeTsconfig.compilerOptions.skipLibCheck).toBeUndefined();
  await typeCheckFiles(dir, files, version, `${project.kind} project`);
}

/** Installs the tarball and the repository's `@types/node` in `dir`, without install scripts. */
async function installPackage(dir: string, tarball: string): Promise<void> {
  const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
  const typesNode = `@types/node@${manifest.devDependencies['@types/node']}`;
  await run(dir, 'npm', ['install', ...flags, '--ignore-scripts', tarball, typesNode], 240_000);
}

/**
 * A third project, `"type": "module"`, with the package and `@types/node` installed and
 * `workflow-scenario.ts` and `chat-scenario.ts` (test/consumer/fixtures). On a
 * Node.js without `node:sqlite` (Node.js 20) the SQLite store needs `better-sqlite3`: the
 * repository's built copy is linked in, as a user would install it.
 */
async function workflowProject(tarball: string): Promise<string> {
  const dir = join(work, 'workflow-project');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer-workflow', private: true, type: 'module' }),
  );
  await installPackage(dir, tarball);
  const builtIn = 'node:sqlite'; // a name, not a literal: Node.js 20's types have no such module
  const hasNodeSqlite = await import(builtIn).then(
    () => true,
    () => false,
  );
  if (!hasNodeSqlite) {
    symlinkSync(
      join(root, 'node_modules', 'better-sqlite3'),
      join(dir, 'node_modules', 'better-sqlite3'),
    );
  }
  for (const scenario of ['workflow-scenario.ts', 'chat-scenario.ts']) {
    writeFileSync(
      join(dir, scenario),
      readFileSync(join(import.meta.dirname, 'fixtures', scenario)),
    );
  }
  return dir;
}

/** Type-checks `files` of `dir` with the README's tsconfig.json and TypeScript `version`. */
async function typeCheckFiles(
  dir: string,
  files: string[],
  version: string,
  what: string,
): Promise<void> {
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...readmeTsconfig, files }));
  await run(
    dir,
    process.execPath,
    [compilers[version], '-p', 'tsconfig.json', '--pretty', 'false'],
    200_000,
  ).catch((error: Error) => {
    throw new Error(`TypeScript ${version}, ${what}: ${error.message}`);
  });
}

describe.skipIf(npmMissing !== undefined && process.env.CI !== 'true')(
  'the packed package in a fresh project',
  () => {
    afterAll(() => rmSync(work, { recursive: true, force: true }));
    beforeAll(async () => {
      if (npmMissing) throw new Error(`${npmMissing}; CI=true, so this fails instead of skipping`);
      mkdirSync(work);
      if (!existsSync(join(root, 'dist', 'ai', 'tool', 'index.js'))) {
        await run(root, 'npm', ['run', 'build']);
      }
      const packed = await run(root, 'npm', [
        'pack',
        '--ignore-scripts',
        '--json',
        '--pack-destination',
        work,
      ]);
      const [info] = JSON.parse(packed.stdout);
      packedFiles = info.files.map((file: { path: string }) => file.path);
      const tarball = join(work, info.filename);
      packedTarball = tarball;
      const [readmeProject, cjsProject] = projects;
      await Promise.all([
        followReadme(readmeProject, tarball),
        (async () => {
          mkdirSync(cjsProject.dir);
          writeFileSync(
            join(cjsProject.dir, 'package.json'),
            JSON.stringify({ name: 'consumer-commonjs', private: true }),
          );
          await installPackage(cjsProject.dir, tarball);
          for (const [name, code] of fileNames()) writeFileSync(join(cjsProject.dir, name), code);
        })(),
      ]);
    }, 300_000);

    it('the README has the examples this test runs', () => {
      expect(toolsModule, 'a ```ts block starting with `// tools.ts`').toBeDefined();
      expect(programs.length).toBeGreaterThan(0);
      expect(readmeTsconfig, 'a tsconfig block with "types": [..., "fino/modules"]').toBeDefined();
      expect(readmeMcpEntry, 'an MCP entry running node_modules/fino/bin/fino.js').toBeDefined();
      expect(projectName, 'a `mkdir <name> && cd <name>` line').toBeDefined();
      expect(setupCommands.map((line) => line.command)).toEqual(
        expect.arrayContaining(['npm init -y', 'npm install /path/to/fino/fino-0.1.0.tgz']),
      );
      expect(usageFiles.map((file) => file.name)).toEqual(['tools.ts', 'app.ts']);
      for (const command of [
        'npx tsc',
        'node --import fino/register app.ts',
        'npx fino run tools.ts get_weather --city Lisbon',
        'npx fino tools tools.ts --format openai',
      ]) {
        expect(lastCommands.map((line) => line.command)).toContain(command);
      }
    });

    it('installs without npm naming a script of fino’s (npm 11: not covered by allowScripts)', () => {
      const installScripts = readmeInstallOutput
        .split('\n')
        .filter((line) => /install-scripts|allowScripts|lifecycle|prepare/i.test(line));
      expect(installScripts.filter((line) => /\bfino@/.test(line))).toEqual([]);
      expect(readmeInstallOutput).not.toContain('npm run build');
    });

    it('holds what a user needs and nothing of the repository besides', () => {
      for (const file of ['LICENSE', 'README.md', 'package.json', 'bin/fino.js', 'modules.d.ts']) {
        expect(packedFiles).toContain(file);
      }
      const stray = packedFiles.filter((file) =>
        /^(src|test|bench|examples|docs|\.ci|node_modules)\/|^tsconfig|^biome/.test(file),
      );
      expect(stray).toEqual([]);
      for (const target of Object.values<any>(manifest.exports)) {
        for (const path of typeof target === 'string' ? [target] : Object.values<string>(target)) {
          expect(packedFiles).toContain(path.slice(2));
        }
      }
    });

    it('ships source maps that resolve: every map carries the sources it names', () => {
      const installed = join(projects[0].dir, 'node_modules', 'fino');
      const maps = packedFiles.filter((file) => file.endsWith('.js.map'));
      const scripts = packedFiles.filter(
        (file) => file.endsWith('.js') && file.startsWith('dist/'),
      );
      expect(maps.length).toBe(scripts.length);
      const unresolved = maps.filter((file) => {
        const map = JSON.parse(readFileSync(join(installed, file), 'utf8'));
        return (
          map.sources.length === 0 ||
          map.sources.some((_: string, i: number) => typeof map.sourcesContent?.[i] !== 'string')
        );
      });
      expect(unresolved).toEqual([]);
    });

    it('type-checks the README examples, strict and without skipLibCheck, with TypeScript 5.9 too', async () => {
      // TypeScript 7 is what the README's `npm install -D typescript` installs: its
      // `npx tsc` runs in the README's own project (below). Here 5.9, the other version
      // the README names, checks the same files in the ES module project.
      const [esm] = projects;
      const runs: [Project, string][] = [[esm, '5.9']];
      const failures = await Promise.all(
        runs.map(([project, version]) => typeCheck(project, version).catch((error) => error)),
      );
      const messages = failures.filter(Boolean).map((error: Error) => error.message);
      expect(messages, messages.join('\n\n')).toEqual([]);
    }, 240_000);

    it('runs the README’s last commands as written, printing what it says they print', async () => {
      const [readmeProject] = projects;
      for (const { command, comment } of lastCommands) {
        const { stdout } = await run(readmeProject.dir, 'sh', ['-c', command], 200_000);
        const printed = /^prints: (.*)$/.exec(comment)?.[1];
        if (printed !== undefined) expect(stdout.trim(), command).toBe(printed);
        if (command.includes('--format openai')) {
          expect(JSON.parse(stdout)[0]).toMatchObject({ type: 'function' });
        }
      }
    }, 240_000);

    it('installs none of fino’s devDependencies and no database driver', () => {
      // The README's project installs typescript itself; the other project has only fino.
      const devOnly = ['vitest', '@biomejs/biome', 'fast-check', '@types/pg'];
      expect(existsSync(join(projects[1].dir, 'node_modules', 'typescript'))).toBe(false);
      for (const project of projects) {
        for (const name of [...devOnly, 'pg', 'better-sqlite3', '@types/better-sqlite3']) {
          expect(existsSync(join(project.dir, 'node_modules', name)), `${name} installed`).toBe(
            false,
          );
        }
      }
    });

    it('runs the workflow surfaces of issue 31 on an SQLite store, type-checked strictly with TypeScript 5.9', async () => {
      const dir = await workflowProject(packedTarball);
      await typeCheckFiles(dir, ['workflow-scenario.ts'], '5.9', 'workflow project');
      const { stdout } = await run(dir, 'node', [
        '--import',
        'fino/register',
        'workflow-scenario.ts',
      ]);
      expect(JSON.parse(stdout)).toEqual({
        schedule: [true, 3_600_000],
        added: 5,
        count: 5,
        log: [{ offset: 0, value: 'started at 0' }],
        result: 5,
        first: ['continued', true, true],
        replay: 'continued',
      });
    }, 300_000);

    it("serves a chat page's requests with chatHandler over HTTP, an approval round trip included, type-checked strictly with TypeScript 5.9", async () => {
      const shared = join(work, 'workflow-project'); // the workflow test's project, when it ran
      const dir = existsSync(shared) ? shared : await workflowProject(packedTarball);
      await typeCheckFiles(dir, ['chat-scenario.ts'], '5.9', 'chat project');
      const { stdout } = await run(dir, 'node', ['--import', 'fino/register', 'chat-scenario.ts']);
      expect(JSON.parse(stdout)).toEqual({
        asked: 'tool-approval-request',
        output: { type: 'tool-output-available', toolCallId: 'c1', output: 'refunded o-17' },
        replayed: 409,
        history: ['user', 'assistant'],
        audit: [['approve', 'ana']],
      });
    }, 300_000);

    for (const project of projects) {
      describe(`in a project of type ${project.kind}`, () => {
        it('runs the README examples', async () => {
          const files = fileNames().filter(([name]) => name !== 'tools.ts');
          for (const [i, [name]] of files.entries()) {
            const where = `README.md: ${name} (${i + 1} of ${files.length})`;
            await run(project.dir, 'node', ['--import', 'fino/register', name]).catch((error) => {
              throw new Error(`${where}: ${error.message}`);
            });
          }
        });

        it('answers npx fino --help', async () => {
          const { stdout } = await run(project.dir, 'npx', ['--no', '--', 'fino', '--help']);
          expect(stdout).toMatch(/^Usage: fino (\[--verbose\] )?<command>/);
          expect(stdout).toMatch(/^ {2}mcp /m);
        });

        it('runs a tool of tools.ts with fino run', async () => {
          const args = ['--no', '--', 'fino', 'run', 'tools.ts', 'get_weather', '--city', 'Lisbon'];
          const { stdout } = await run(project.dir, 'npx', args);
          expect(stdout.trim()).toBe('Sunny in Lisbon');
        });

        it('lists the tools of tools.ts with fino tools', async () => {
          const args = ['--no', '--', 'fino', 'tools', 'tools.ts', '--format', 'openai'];
          const { stdout } = await run(project.dir, 'npx', args);
          expect(JSON.parse(stdout)).toEqual([
            {
              type: 'function',
              function: expect.objectContaining({ name: 'get_weather' }),
            },
          ]);
        });

        it('serves tools.ts with fino mcp to the SDK client, started as the README says', async () => {
          const args = readmeMcpEntry.args.map((arg: string) =>
            arg.replace('/path/to/your-project', project.dir),
          );
          const client = new Client({ name: 'consumer-test', version: '1.0.0' });
          const transport = new StdioClientTransport({
            command: readmeMcpEntry.command,
            args,
            env,
            stderr: 'pipe',
          });
          let stderr = '';
          transport.stderr?.on('data', (chunk) => {
            stderr += chunk;
          });
          await client.connect(transport).catch((error: Error) => {
            throw new Error(
              `${readmeMcpEntry.command} ${args.join(' ')}: ${error.message}\n${stderr}`,
            );
          });
          try {
            const { tools } = await client.listTools();
            expect(tools.map((tool) => tool.name)).toEqual(['get_weather']);
            const result = await client.callTool({
              name: 'get_weather',
              arguments: { city: 'Porto' },
            });
            expect(result.content).toEqual([{ type: 'text', text: 'Sunny in Porto' }]);
          } finally {
            await client.close();
          }
        }, 60_000);
      });
    }
  },
);

if (npmMissing !== undefined && process.env.CI !== 'true') {
  console.warn(`test/consumer: skipped, ${npmMissing} (with CI=true this fails)`);
  describe('the packed package in a fresh project', () => {
    it.skip(`is not tested: ${npmMissing}`, () => {});
  });
}
