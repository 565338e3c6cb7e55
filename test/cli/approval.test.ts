/**
 * `fino run` on tools that need a human: approval and suspension, in-process with and
 * without a (simulated) terminal. test/cli/terminal.test.ts drives the binary in a real
 * pseudo-terminal; test/cli/bin.test.ts covers the binary without one.
 */
import { describe, expect, it } from 'vitest';
import { cli, cliOnTerminal } from './io.ts';

const file = 'fixtures/approval.ts';

describe('fino run: approval', () => {
  it('refuses with exit 3 and says how to approve when there is no terminal', async () => {
    expect(await cli(['run', file, 'remove_file', '--path', 'victim.txt'])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'fino: remove_file (risk: destructive) requires approval, and there is no terminal to ask; it did not run\nPass --yes to approve it: fino run … --yes\n',
    });
  });

  it('shows the tool, arguments and risk on a terminal, and exits 3 unless the answer is y', async () => {
    for (const answer of ['n', '', 'maybe']) {
      const result = await cliOnTerminal(
        ['run', file, 'remove_file', '--path', 'victim.txt'],
        [answer],
      );
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(
        'fino: remove_file requires approval (risk: destructive)\n  tool: remove_file\n  arguments: {"path":"victim.txt"}\n  risk: destructive\n',
      );
      expect(result.stderr).toContain('Run it? [y/N] ');
      expect(result.stderr).toContain('fino: not approved; remove_file did not run\n');
    }
  });

  it('runs the tool when the operator answers y (or with --yes, without asking)', async () => {
    const approved = await cliOnTerminal(
      ['run', file, 'remove_file', '--path', 'missing.txt'],
      ['y'],
    );
    // The tool ran: unlink failed on the missing file.
    expect(approved.code).toBe(1);
    expect(approved.stderr).toMatch(/ENOENT/);
    const yes = await cli(['run', file, 'remove_file', '--path', 'missing.txt', '--yes']);
    expect(yes.code).toBe(1);
    expect(yes.stderr).toMatch(/^fino: ENOENT/);
  });

  it('escapes control characters in the arguments it shows', async () => {
    const result = await cliOnTerminal(
      ['run', file, 'remove_file', '--path', 'a\u001b[2J\u202eb'],
      ['n'],
    );
    expect(result.stderr).toContain('  arguments: {"path":"a\\u001b[2J\\u202eb"}\n');
    // Only readline's own cursor sequences follow, on the prompt line.
    const shown = result.stderr.slice(0, result.stderr.indexOf('  risk:'));
    expect(shown.includes('\u001b') || shown.includes('\u202e')).toBe(false);
  });
});

describe('fino run: suspension', () => {
  it('exits 4 with the reason and payload when there is no terminal', async () => {
    expect(await cli(['run', file, 'ask_colour'])).toEqual({
      code: 4,
      stdout: '',
      stderr:
        'fino: ask_colour suspended and waits for an answer: Which colour?\n  payload: {"choices":["red","blue"]}\nRun it in a terminal to answer (fino run reads the answer from stdin when stdin and stderr are a terminal).\n',
    });
  });

  it('reads the reason from the object form of suspend', async () => {
    const result = await cli(['run', file, 'ask_size']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /^fino: ask_size suspended and waits for an answer: Pick a size\n {2}payload: \{"sizes":\["S","M"\]\}\n/,
    );
    expect(await cliOnTerminal(['run', file, 'ask_size'], ['M'])).toMatchObject({
      code: 0,
      stdout: 'size M\n',
    });
  });

  it('reads the answer on a terminal, as JSON when it parses and as text otherwise', async () => {
    const json = await cliOnTerminal(['run', file, 'ask_colour'], ['{"r":255}']);
    expect(json.stderr).toContain(
      'fino: ask_colour waits for an answer: Which colour?\n  payload: {"choices":["red","blue"]}\n',
    );
    expect(json.stderr).toContain('Answer (JSON, or text): ');
    expect(json).toMatchObject({ code: 0, stdout: 'colour: {"r":255}\n' });
    const text = await cliOnTerminal(['run', file, 'ask_colour'], ['dark green']);
    expect(text).toMatchObject({ code: 0, stdout: 'colour: "dark green"\n' });
  });
});

describe('fino run on a terminal', () => {
  it("escapes control characters in the tool's output, keeping its lines", async () => {
    const result = await cliOnTerminal(['run', file, 'noisy'], []);
    expect(result.stdout).toBe('a\\x1b[2Jb\\u202ec\\x9bd\nline two\n');
  });

  it('prints the output as it is when stdout is not a terminal', async () => {
    expect((await cli(['run', file, 'noisy'])).stdout).toBe('a\x1b[2Jb\u202ec\x9bd\nline two\n');
  });
});
