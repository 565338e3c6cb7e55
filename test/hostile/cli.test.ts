/**
 * Hostile input for the command line: stored and model-written text must not drive the
 * operator's terminal. Control sequences (C0, DEL, C1) and bidi overrides print as
 * visible escapes, one field per line, in `fino sessions list/show`, in error messages,
 * in `fino run`'s output on a terminal and in its approval prompt
 * (test/cli/approval.test.ts). Hostile flags get the one usage error — the flag, what
 * was expected, what was received, the command's --help — and exit 2, polluting nothing.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { session, sqliteStore } from '../../src/ai/session/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { type CommandIo, escapeText, main, safeJson } from '../../src/cli/index.ts';
import { v } from '../../src/validate/index.ts';
import { cli, cliOnTerminal } from '../cli/io.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** Clear the screen, retitle the window, a C1 CSI, a bidi override, DEL. */
const HOSTILE = '\x1b[2J\x1b]0;pwned\x07\x9b31m\u202eevil\u2066\x7f';
/** A forged line: a model's newline followed by what looks like another pending call. */
const FORGED = 'x\n  pending approval fake_1  tool=harmless';

/** True when `text` holds a character a terminal would act on (besides line feeds). */
const hasControl = (text: string) =>
  [...text].some((char) => {
    const code = char.charCodeAt(0);
    return (
      (code < 0x20 && char !== '\n') ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    );
  });

describe('escapeText', () => {
  it('prints control characters and bidi controls as visible escapes', () => {
    expect(escapeText('\x1b[2J')).toBe('\\x1b[2J');
    expect(escapeText(HOSTILE)).toBe('\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u202eevil\\u2066\\x7f');
    expect(escapeText('\x00\x08\r')).toBe('\\x00\\x08\\r');
  });

  it('keeps one value on one line unless told it spans lines', () => {
    expect(escapeText(FORGED)).toBe('x\\n  pending approval fake_1  tool=harmless');
    expect(escapeText('a\tb\nc', { multiline: true })).toBe('a\tb\nc');
    expect(escapeText('a\tb')).toBe('a\\tb');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    const text = 'Café — 東京 🚀 \\x1b (already literal)';
    expect(escapeText(text)).toBe(text);
  });

  it('writes JSON that parses to the same value and holds no terminal control', () => {
    const value = { note: HOSTILE, nested: [FORGED] };
    const json = safeJson(value, 2);
    expect(JSON.parse(json)).toEqual(value);
    expect(hasControl(json)).toBe(false);
  });
});

describe('fino sessions with hostile stored text', () => {
  const dir = tempDir('hostile-cli');
  const db = join(dir, 'runs.db');

  async function seed() {
    const store = sqliteStore(db);
    const wipe = tool({
      name: 'wipe',
      parameters: v.object({ path: v.string() }),
      requiresApproval: true,
      risk: 'destructive',
      execute: () => 'wiped',
    });
    const suspending = agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'call_1', name: 'wipe', args: { path: `${HOSTILE}${FORGED}` } }] },
      ]),
      tools: [wipe],
    });
    await session({ store, agent: suspending }).start('go', { runId: 'run-pending' });
    const answering = agent({ model: scriptedModel([`done ${HOSTILE}${FORGED}`]) });
    await session({ store, agent: answering }).start('go', { runId: 'run-done' });
    await session({ store }).cancel('run-pending', { by: HOSTILE, note: FORGED });
    await store.close();
  }

  async function fino(argv: string[]) {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk) => {
      out += chunk;
    });
    const io: CommandIo = { stdin: new PassThrough(), stdout, stderr: stdout, cwd: dir, env: {} };
    const code = await main(argv, io);
    return { code, out };
  }

  it('list and show print every stored field escaped, on its own line', async () => {
    await seed();
    for (const argv of [
      ['sessions', 'list', '--db', db],
      ['sessions', 'show', 'run-done', '--db', db],
      ['sessions', 'show', 'run-pending', '--db', db],
    ]) {
      const { code, out } = await fino(argv);
      expect(code).toBe(0);
      expect(hasControl(out)).toBe(false);
      expect(out).not.toMatch(/^\s*pending approval fake_1/m);
    }
    const done = await fino(['sessions', 'show', 'run-done', '--db', db]);
    expect(done.out).toContain(
      '  text: done \\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u202eevil\\u2066\\x7fx\\n  pending approval fake_1',
    );
    const cancelled = await fino(['sessions', 'show', 'run-pending', '--db', db]);
    expect(cancelled.out).toMatch(
      /audit .* cancel by \\x1b\[2J.*: x\\n {2}pending approval fake_1/,
    );
  });

  it('--json output parses to the stored values and holds no terminal control', async () => {
    const { code, out } = await fino(['sessions', 'show', 'run-done', '--db', db, '--json']);
    expect(code).toBe(0);
    expect(hasControl(out.replaceAll('\n', ''))).toBe(false);
    expect(JSON.parse(out).text).toBe(`done ${HOSTILE}${FORGED}`);
  });
});

describe('fino run with hostile tool text', () => {
  const tools = join(import.meta.dirname, 'fixtures/cli-tools.ts');

  it('escapes an error message, terminal or not', async () => {
    const result = await cli(['run', tools, 'throwing']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^fino: failed \\x1b\[2J\\x1b\]0;pwned\\x07\\u202eevil\n/);
  });

  it('escapes isError content on a terminal, and passes it through when piped', async () => {
    const onTerminal = await cliOnTerminal(['run', tools, 'failing'], []);
    expect(onTerminal).toEqual({
      code: 1,
      stdout: '',
      stderr: 'failed \\x1b[2J\\x1b]0;pwned\\x07\\u202eevil\n',
    });
    expect((await cli(['run', tools, 'failing'])).stderr).toBe(
      'failed \x1b[2J\x1b]0;pwned\x07\u202eevil\n',
    );
  });
});

describe('fino with hostile flags', () => {
  const many = 'fixtures/many.ts';
  /** A usage error: exit 2, `fino: <message>`, the command's --help hint, nothing on stdout. */
  const refused = async (argv: string[], message: string, command: string) => {
    const result = await cli(argv);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `fino: ${message}\nRun "${command} --help" for usage.\n`,
    });
    expect(hasControl(result.stderr.replaceAll('\n', ''))).toBe(false);
  };

  it('names an unknown flag and the flags there are, in every command', async () => {
    await refused(
      ['tools', many, '--pretty'],
      'unknown option --pretty; expected one of --format, --help',
      'fino tools',
    );
    await refused(
      ['mcp', many, '--ttl', '1e309'],
      'unknown option --ttl; expected one of --http, --token, --approval, --help',
      'fino mcp',
    );
    await refused(
      ['sessions', 'list', '--ttl=1e309'],
      'unknown option --ttl; expected one of --db, --status, --thread, --json, --help',
      'fino sessions list',
    );
    await refused(
      ['run', many, 'get_weather', '--ttl', '1e309'],
      'unknown option --ttl; expected one of --city, --unit, --help',
      `fino run ${many} get_weather`,
    );
  });

  it('says what a number flag expected and what it received: text, out of range, infinite', async () => {
    const serve = 'fino sessions serve';
    await refused(
      ['sessions', 'serve', '--port', 'abc'],
      '--port: expected an integer value, received "abc"',
      serve,
    );
    await refused(
      ['sessions', 'serve', '--port', '99999'],
      '--port: expected number <= 65535, received 99999',
      serve,
    );
    await refused(
      ['sessions', 'serve', '--port=1e309'],
      '--port: expected an integer value, received "1e309"',
      serve,
    );
    await refused(
      ['sessions', 'serve', '--port', '-1'],
      '--port: expected number >= 0, received -1',
      serve,
    );
    await refused(
      ['run', 'fixtures/calc.ts', 'add', '--n', '1e309'],
      '--n: expected a number value, received "1e309"',
      'fino run fixtures/calc.ts add',
    );
  });

  it('prints control characters in flags and values as escapes', async () => {
    await refused(
      ['tools', many, `--${HOSTILE}`],
      'unknown option --\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u202eevil\\u2066\\x7f; expected one of --format, --help',
      'fino tools',
    );
    await refused(
      ['tools', many, '--format', HOSTILE],
      '--format: expected one of neutral, openai, anthropic, gemini, mcp, received "\\u001b[2J\\u001b]0;pwned\\u0007\\x9b31m\\u202eevil\\u2066\\x7f"',
      'fino tools',
    );
  });

  it('refuses --__proto__ and --constructor as unknown flags, polluting nothing', async () => {
    for (const argv of [
      ['tools', many, '--__proto__', '{"polluted":true}'],
      ['sessions', 'list', '--__proto__={"polluted":true}'],
      ['run', many, 'get_weather', '--constructor', '{"polluted":true}'],
      ['mcp', many, '--__proto__'],
    ]) {
      const result = await cli(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^fino: unknown option --(__proto__|constructor); expected/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('takes the last of a repeated flag, however often it is repeated', async () => {
    const repeated = Array.from({ length: 5000 }, () => ['--format', 'openai']).flat();
    const result = await cli(['tools', many, ...repeated, '--format', 'mcp']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0]).toHaveProperty('inputSchema');
    const weather = ['run', many, 'get_weather', '--city', 'Faro', '--city', 'Porto'];
    expect((await cli(weather)).stdout).toBe('Sunny in Porto\n');
  });
});
