import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { type SessionRun, session, sqliteStore } from '../../src/ai/session/index.ts';
import type { CommandIo } from '../../src/cli/command.ts';
import { sessions } from '../../src/cli/commands/sessions.ts';
import { TERMINAL_CONTROLS } from '../../src/internal/terminal-controls.ts';
import { budgetAgent } from '../ai/session/fixtures/budget-agent.ts';
import { readLog, shopAgent } from '../ai/session/fixtures/shop-agent.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('cli-sessions');
const log = join(dir, 'log.jsonl');
process.env.FINO_TEST_LOG = log;
const RUN_CLI = join(import.meta.dirname, 'fixtures', 'run-cli.ts');
/** tsx's loader by its own address: the child runs in a folder without node_modules. */
const TSX = import.meta.resolve('tsx');
const AGENT = join(import.meta.dirname, '..', 'ai', 'session', 'fixtures', 'order-agent.ts');

async function cli(argv: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => {
    out += c;
  });
  stderr.on('data', (c) => {
    err += c;
  });
  const io: CommandIo = { stdin: new PassThrough(), stdout, stderr, cwd: dir, env };
  const code = await sessions.run(argv, io);
  return { code, out, err };
}

type Suspended = Extract<SessionRun, { status: 'suspended' }>;

async function suspendedRun(db: string, runId: string) {
  const store = sqliteStore(join(dir, db));
  const run = (await session({ store, agent: shopAgent('order', log) }).start('Ship', {
    runId,
    threadId: 'customer-1',
  })) as Suspended;
  await store.close();
  return run;
}

describe('fino sessions', () => {
  it('lists runs with their pending calls: tool, arguments, risk and how to decide them', async () => {
    const run = await suspendedRun('list.db', 'run-list');
    const { code, out } = await cli(['list', '--db', 'list.db']);
    expect(code).toBe(0);
    expect(out).toContain('run-list  suspended');
    expect(out).toContain('thread=customer-1');
    expect(out).toContain('pending approval ship_1  tool=ship  risk=destructive');
    expect(out).toContain('args={"order":"A1"}');
    expect(out).toContain('decide: fino sessions approve run-list ship_1');
    expect(out).not.toContain('token=');
    const json = await cli(['list', '--db', 'list.db', '--json', '--status', 'suspended']);
    expect(JSON.parse(json.out)).toEqual([
      expect.objectContaining({
        runId: 'run-list',
        status: 'suspended',
        pending: run.pending.map(({ token: _token, ...call }) => call),
      }),
    ]);
    expect(
      JSON.parse((await cli(['list', '--db', 'list.db', '--json', '--status=done'])).out),
    ).toEqual([]);
  });

  it('prints, for a call waiting for an answer, a resume command that works when run in a shell', async () => {
    const store = sqliteStore(join(dir, 'answer db.db'));
    await session({ store, agent: shopAgent('ask', log) }).start('Size?', { runId: "run 'q'" });
    await store.close();
    const fino = (args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', TSX, RUN_CLI, ...args], { cwd: dir });
    const { stdout } = await fino(['sessions', 'list', '--db', 'answer db.db']);
    const printed = /^ {4}decide: (.*)$/m.exec(stdout)?.[1];
    expect(printed).toBe(
      `fino sessions resume 'run '\\''q'\\''' ask_1 --value <JSON> --db 'answer db.db'`,
    );
    // The printed command as a user runs it, `<JSON>` replaced by an answer.
    const command = printed!.replace('<JSON>', `'"M"'`).replace(/^fino /, '');
    const shell = `"${process.execPath}" --import "${TSX}" "${RUN_CLI}" ${command}`;
    const answered = await promisify(execFile)('sh', ['-c', shell], { cwd: dir });
    expect(answered.stdout).toContain("run 'q'  ready");
    const check = sqliteStore(join(dir, 'answer db.db'));
    const run = await session({ store: check }).get("run 'q'");
    await check.close();
    expect(run?.audit?.at(-1)).toMatchObject({ action: 'resume', toolCallId: 'ask_1' });
  });

  it('prints decide lines a shell passes on intact, for run ids with $, quotes and control characters', async () => {
    const runId = `$run "it's" \x1b[2J\u202e\tend`;
    await suspendedRun('odd ids.db', runId);
    const { out } = await cli(['list', '--db', 'odd ids.db']);
    const printed = /^ {4}decide: (.*)$/m.exec(out)?.[1] ?? '';
    expect(printed).not.toMatch(TERMINAL_CONTROLS);
    // The printed command through a real shell, "fino" replaced by a printer of its argv.
    const argv = execFileSync('sh', ['-c', printed.replace(/^fino /, "printf '%s\\0' ")])
      .toString('utf8')
      .split('\0')
      .slice(0, -1);
    expect(argv).toEqual(['sessions', 'approve', runId, 'ship_1', '--db', 'odd ids.db']);
    expect((await cli(argv.slice(1))).code).toBe(0);
  });

  it('approves by token and continues the run in its own process with --agent', async () => {
    const run = await suspendedRun('approve.db', 'run-approve');
    const token = run.pending[0].token!;
    const { code, out } = await cli([
      'approve',
      token,
      '--db',
      'approve.db',
      '--agent',
      AGENT,
      '--by',
      'ana',
      '--note',
      'ok',
    ]);
    expect(code).toBe(0);
    expect(out).toContain('run-approve  done');
    expect(out).toContain('text: Charged and shipped.');
    expect(readLog(log).filter((e) => e.key === 'run-approve:ship_1')).toHaveLength(1);
    const shown = await cli(['show', 'run-approve', '--db', 'approve.db']);
    expect(shown.out).toMatch(/audit \S+ approve ship_1 by ana: ok/);
    const again = await cli(['approve', token, '--db', 'approve.db', '--agent', AGENT]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already decided/);
  });

  it('records a decision without --agent and leaves the run ready for a worker', async () => {
    await suspendedRun('defer.db', 'run-defer');
    const { code, out } = await cli([
      'reject',
      'run-defer',
      'ship_1',
      '--reason',
      'address unverified',
      '--db',
      'defer.db',
    ]);
    expect(code).toBe(0);
    expect(out).toContain('run-defer  ready');
    expect(out).toContain('recorded; the run is ready for a worker');
    const store = sqliteStore(join(dir, 'defer.db'));
    const report = await session({ store, agent: shopAgent('order', log) }).drain();
    expect(report.runs).toMatchObject([{ runId: 'run-defer', status: 'done' }]);
    await store.close();
  });

  it("shows a running run's last progress on one line, its message escaped", async () => {
    const store = sqliteStore(join(dir, 'progress.db'));
    const runId = 'run-progress';
    await store.create({ runId, input: 'Copy', owner: 'w1', leaseMs: 60_000 });
    const call = { id: 'copy_1', name: 'copy', args: {} };
    await store.checkpoint(
      runId,
      'w1',
      {
        version: 1,
        runId,
        messages: [{ role: 'user', content: 'Copy' }],
        steps: [
          { step: 0, text: '', toolCalls: [call], toolResults: [], stopReason: 'tool_calls' },
        ],
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        turn: { step: 0, results: [], pending: [], cleared: [] },
      } as never,
      60_000,
    );
    const message = 'file 3\u001b[2J\r\nrun-fake  done';
    await store.progress(runId, 'w1', {
      toolCallId: 'copy_1',
      toolName: 'copy',
      progress: 3,
      total: 10,
      message,
      at: Date.UTC(2026, 11, 3, 12),
    });
    await store.close();
    const { code, out } = await cli(['show', runId, '--db', 'progress.db']);
    expect(code).toBe(0);
    expect(out).toContain(
      '  progress 3/10  tool=copy copy_1  at 2026-12-03T12:00:00.000Z  "file 3\\u001b[2J\\r\\nrun-fake  done"',
    );
    expect(out).not.toContain('\u001b');
    expect(out.split('\n').filter((line) => line.startsWith('run-'))).toHaveLength(1);
    const json = JSON.parse((await cli(['show', runId, '--db', 'progress.db', '--json'])).out);
    expect(json.progress).toMatchObject({ progress: 3, total: 10, message });
  });

  it('uses $FINO_DATABASE_URL when --db is absent, and cancels', async () => {
    await suspendedRun('env.db', 'run-env');
    const { code, out } = await cli(['cancel', 'run-env', '--by', 'ops'], {
      FINO_DATABASE_URL: join(dir, 'env.db'),
    });
    expect(code).toBe(0);
    expect(out).toContain('run-env  cancelled');
  });

  it('explains usage errors with exit code 2', async () => {
    expect(await cli([])).toMatchObject({
      code: 2,
      err: expect.stringContaining('missing subcommand'),
    });
    expect(await cli(['frobnicate'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown command "frobnicate"; expected one of list, show'),
    });
    expect(await cli(['list', '--db', 'missing.db'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('no session database'),
    });
    expect(await cli(['list', '--bogus'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown option --bogus'),
    });
    await suspendedRun('usage.db', 'run-usage');
    expect(await cli(['reject', 'run-usage', 'ship_1', '--db', 'usage.db'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--reason'),
    });
    expect(
      await cli(['resume', 'run-usage', 'ship_1', '--value', '{bad', '--db', 'usage.db']),
    ).toMatchObject({
      code: 2,
      err: expect.stringContaining('--value: expected a JSON value, received "{bad"'),
    });
    expect(await cli(['list', '--status', 'odd', '--db', 'usage.db'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--status: expected one of running'),
    });
    expect(await cli(['show', 'nope', '--db', 'usage.db'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('no run with id "nope"'),
    });
    const notAnAgent = join(
      import.meta.dirname,
      '..',
      'ai',
      'session',
      'fixtures',
      'shop-agent.ts',
    );
    expect(
      await cli(['approve', 'run-usage', 'ship_1', '--db', 'usage.db', '--agent', notAnAgent]),
    ).toMatchObject({ code: 2, err: expect.stringContaining('exports no agent') });
  });

  it("shows the usage of the run and of each step, tokens and cost, and a failed run's code", async () => {
    const store = sqliteStore(join(dir, 'budget.db'));
    await session({
      store,
      agent: budgetAgent(join(dir, 'budget.jsonl'), { maxTokens: 3000 }),
    }).start('Do the work', { runId: 'run-budget' });
    await store.close();
    const { code, out } = await cli(['show', 'run-budget', '--db', 'budget.db']);
    expect(code).toBe(0);
    expect(out).toContain(
      '  error BUDGET_EXCEEDED: run "run-budget" stopped: it spent 3216 tokens',
    );
    expect(out).toMatch(/ {2}usage 3048 in \(1334 cached\), 168 out, 3216 tokens, \$0\.\d+\n/);
    expect(out).toContain(
      '  step 0 tools=work  1237 in (333 cached), 91 out, 1328 tokens, $0.000215175\n',
    );
    expect(out).toMatch(
      / {2}step 1 tools=work {2}1811 in \(1001 cached\), 77 out, 1888 tokens, \$0\.\d+\n/,
    );
    const json = JSON.parse((await cli(['show', 'run-budget', '--db', 'budget.db', '--json'])).out);
    expect(json).toMatchObject({ status: 'error', code: 'BUDGET_EXCEEDED' });
  });
});

describe('fino sessions show, for a run of a thread', () => {
  it('prints the thread: its newest messages last, one line each, long ones folded, escaped', async () => {
    const store = sqliteStore(join(dir, 'thread.db'));
    const runs = session({
      store,
      agent: agent({
        model: scriptedModel(['First answer.', `Second\u001b[2J answer ${'y'.repeat(500)}`]),
      }),
    });
    await runs.start('First question', { threadId: 'customer-1', runId: 'run-t1' });
    await runs.start('Second question', { threadId: 'customer-1', runId: 'run-t2' });
    await store.close();
    const { code, out } = await cli(['show', 'run-t2', '--db', 'thread.db']);
    expect(code).toBe(0);
    const lines = out.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  thread customer-1: 4 messages'));
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 5)).toEqual([
      '    #0 User: First question',
      '    #1 Assistant: First answer.',
      '    #2 User: Second question',
      expect.stringMatching(
        /^ {4}#3 Assistant: Second\\x1b\[2J answer y+… \(\d+ more characters\)$/,
      ),
    ]);
    expect(out).not.toContain('\u001b');
    const json = JSON.parse((await cli(['show', 'run-t2', '--db', 'thread.db', '--json'])).out);
    expect(json.thread).toMatchObject({ threadId: 'customer-1', length: 4 });
    expect(json.thread.messages.map((m: { position: number }) => m.position)).toEqual([0, 1, 2, 3]);
  });
});
