/**
 * Runs every example of the specification (examples/spec/) with
 * `node --import fino/register` against the built package, checks the result each
 * shows, and type-checks them as a user project would: `"types": ["fino/modules"]`
 * with the package installed. Needs `npm run build` first (`npm test` does it).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const examples = join(root, 'examples/spec');

async function runExample(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'fino/register', join(examples, file)],
      {
        cwd: root,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const printed = async (file: string): Promise<unknown> => {
  const { code, stdout, stderr } = await runExample(file);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout);
};

describe.concurrent('specification examples, run verbatim', { timeout: 120_000 }, () => {
  it('SuspendSignal: the thrown signal carries its reason and payload', async () => {
    const { code, stderr } = await runExample('suspend-signal.ts');
    expect(code).toBe(1);
    expect(stderr).toContain('SuspendSignal: needs approval');
    expect(stderr).toContain("payload: { action: 'delete', target: 'prod-db' }");
  });

  it("Tool: run() gives the text and invoke() → { content: 'Sunny in Lisbon' }", async () => {
    expect(await printed('tool.ts')).toEqual({
      text: 'Sunny in Lisbon',
      result: { content: 'Sunny in Lisbon' },
    });
  });

  it('ToolRunContext: fetch_page constructs (it is not run: no network)', async () => {
    expect(await printed('tool-run-context.ts')).toEqual({
      name: 'fetch_page',
      description: 'Fetch a URL as text.',
      parameters: {
        type: 'object',
        properties: { url: { type: 'string' } },
        required: ['url'],
      },
    });
  });

  it('ToolOptions: remove_file keeps its risk, side effects, approval and timeout', async () => {
    const [definition, ...rest] = (await printed('tool-options.ts')) as unknown[];
    expect(definition).toMatchObject({
      name: 'remove_file',
      parameters: {
        properties: { path: { type: 'string', description: 'Workspace-relative path' } },
      },
    });
    expect(rest).toEqual(['destructive', true, true, 10_000]);
  });

  it('tool(): add answers 2 + 3', async () => {
    expect(await printed('tool-function.ts')).toEqual({ content: '5' });
  });

  it("toToolDefinition() → { name: 'search', description: 'Search the web.', parameters: { type: 'object', ... } }", async () => {
    expect(await printed('to-tool-definition.ts')).toEqual({
      name: 'search',
      description: 'Search the web.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' } },
        required: ['query'],
      },
    });
  });
});

describe('specification examples, type-checked as a user project', () => {
  const project = tempDir('spec');

  it('type-check under strict with "types": ["fino/modules"]', async () => {
    mkdirSync(join(project, 'node_modules/@types'), { recursive: true });
    symlinkSync(root, join(project, 'node_modules/fino'), 'dir');
    symlinkSync(
      join(root, 'node_modules/@types/node'),
      join(project, 'node_modules/@types/node'),
      'dir',
    );
    for (const file of readdirSync(examples).filter((f) => f.endsWith('.ts'))) {
      cpSync(join(examples, file), join(project, file));
    }
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node', 'fino/modules'],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
        },
        include: ['*.ts'],
      }),
    );
    const tsc = join(root, 'node_modules/.bin/tsc');
    const result = await run(tsc, ['-p', project], { cwd: project }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);
});
