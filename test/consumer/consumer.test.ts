/**
 * The package as a user gets it (decision 070): `npm pack`, then `npm install` of the
 * tarball into fresh projects outside the repository — one with `"type": "module"`, one
 * without, the second installed with `--ignore-scripts` — where none of fino's
 * devDependencies can be found. There the README's "Use it in your project" steps run:
 * its examples execute, type-check strictly (no `skipLibCheck`) under TypeScript 7 and
 * 5.9, and `fino --help`, `fino run`, `fino tools` and `fino mcp` (driven by the official
 * SDK client over stdio) work. Packs the current dist/: needs `npm run build` first
 * (`npm test` does it; the test builds only when dist/ is missing). Skips with a message
 * when npm cannot run, and fails instead when `CI=true`.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** The README's blocks of one language, in order. */
function readmeBlocks(language: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  for (const match of readme.matchAll(fence)) blocks.push(match[1]);
  return blocks;
}

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

/** Created by the tests that run, outside the repository, and removed after them. */
const work = join(tmpdir(), `fino-consumer-${process.pid}-${Date.now().toString(36)}`);

interface Project {
  kind: 'module' | 'commonjs';
  dir: string;
}
const projects: Project[] = [
  { kind: 'module', dir: join(work, 'esm-project') },
  { kind: 'commonjs', dir: join(work, 'cjs-project') },
];
let packedFiles: string[] = [];

const compilers: Record<string, string> = {
  '7': join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
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
  const files = [toolsModule!, ...programs].map((example, i) => {
    const name = `example-${i}.ts`;
    writeFileSync(join(dir, name), example.code);
    return name;
  });
  expect(readmeTsconfig.compilerOptions.skipLibCheck).toBeUndefined();
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...readmeTsconfig, files }));
  await run(
    dir,
    process.execPath,
    [compilers[version], '-p', 'tsconfig.json', '--pretty', 'false'],
    200_000,
  ).catch((error: Error) => {
    throw new Error(`TypeScript ${version}, ${project.kind} project: ${error.message}`);
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
      await Promise.all(
        projects.map(async (project) => {
          mkdirSync(project.dir);
          const type = project.kind === 'module' ? { type: 'module' } : {};
          writeFileSync(
            join(project.dir, 'package.json'),
            JSON.stringify({ name: `consumer-${project.kind}`, private: true, ...type }),
          );
          const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
          if (project.kind === 'commonjs') flags.push('--ignore-scripts');
          const typesNode = `@types/node@${manifest.devDependencies['@types/node']}`;
          await run(project.dir, 'npm', ['install', ...flags, tarball, typesNode], 240_000);
          writeFileSync(join(project.dir, 'tools.ts'), toolsModule!.code);
          programs.forEach((program, i) => {
            writeFileSync(join(project.dir, `readme-${i}.ts`), program.code);
          });
        }),
      );
    }, 300_000);

    it('the README has the examples this test runs', () => {
      expect(toolsModule, 'a ```ts block starting with `// tools.ts`').toBeDefined();
      expect(programs.length).toBeGreaterThan(0);
      expect(readmeTsconfig, 'a tsconfig block with "types": [..., "fino/modules"]').toBeDefined();
      expect(readmeMcpEntry, 'an MCP entry running node_modules/fino/bin/fino.js').toBeDefined();
      for (const command of [
        'npm install /path/to/fino/fino-0.1.0.tgz',
        'npx fino run tools.ts get_weather --city Lisbon',
        'npx fino tools tools.ts --format openai',
      ]) {
        expect(readme).toContain(command);
      }
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

    it('type-checks the README examples, strict and without skipLibCheck, with TypeScript 7 and 5.9', async () => {
      // In the ES module project only: the CommonJS one resolves the same declarations
      // (fino is ESM only, its examples are ES modules there too), and checking every
      // declaration file takes TypeScript 5.9 a minute on a loaded machine.
      const [esm] = projects;
      const runs: [Project, string][] = [
        [esm, '7'],
        [esm, '5.9'],
      ];
      const failures = await Promise.all(
        runs.map(([project, version]) => typeCheck(project, version).catch((error) => error)),
      );
      const messages = failures.filter(Boolean).map((error: Error) => error.message);
      expect(messages, messages.join('\n\n')).toEqual([]);
    }, 240_000);

    it('installs none of fino’s devDependencies and no database driver', () => {
      const devOnly = ['typescript', 'vitest', '@biomejs/biome', 'fast-check', '@types/pg'];
      for (const project of projects) {
        for (const name of [...devOnly, 'pg', 'better-sqlite3', '@types/better-sqlite3']) {
          expect(existsSync(join(project.dir, 'node_modules', name)), `${name} installed`).toBe(
            false,
          );
        }
      }
    });

    for (const project of projects) {
      describe(`in a project of type ${project.kind}`, () => {
        it('runs the README examples', async () => {
          for (const [i, program] of programs.entries()) {
            const where = `README.md:${program.line}`;
            await run(project.dir, 'node', ['--import', 'fino/register', `readme-${i}.ts`]).catch(
              (error) => {
                throw new Error(`${where}: ${error.message}`);
              },
            );
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
