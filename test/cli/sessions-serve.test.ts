import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { session, sqliteStore } from '../../src/ai/session/index.ts';
import type { CommandIo } from '../../src/cli/command.ts';
import { sessions } from '../../src/cli/commands/sessions.ts';
import { type ServeHelpers, serve } from '../../src/cli/commands/sessions-serve.ts';
import { sqliteWorkflowStore } from '../../src/workflow/index.ts';
import { readLog, shopAgent } from '../ai/session/fixtures/shop-agent.ts';
import { workflowShop } from '../ai/session/inbox/workflow-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const RUN_CLI = join(import.meta.dirname, 'fixtures', 'run-cli.ts');
/** tsx's loader by its own address: the child runs in a folder without node_modules. */
const TSX = import.meta.resolve('tsx');
const dir = tempDir('cli-serve');
const log = join(dir, 'log.jsonl');

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = { out: '', err: '' };
  stdout.on('data', (c) => {
    text.out += c;
  });
  stderr.on('data', (c) => {
    text.err += c;
  });
  const value: CommandIo = { stdin: new PassThrough(), stdout, stderr, cwd: dir, env: {} };
  return { io: value, text };
}

/** Helpers like `fino sessions`'s own, over one SQLite file and the shop agent. */
const helpers = (db: string): ServeHelpers => ({
  openStore: () => sqliteStore(join(dir, db)),
  loadAgent: async () => shopAgent('order', log),
});

/** Starts `serve`, waits for the printed address, and returns it with how to stop. */
async function started(argv: string[], db: string) {
  const { io: cliIo, text } = io();
  let stop!: () => void;
  const until = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const code = serve(argv, cliIo, helpers(db), until);
  // Waits for the address (or for serve to end without one), however loaded the machine.
  const printed = new Promise<void>((resolve) => {
    const check = () => {
      if (text.err.includes('http://')) resolve();
    };
    cliIo.stderr.on('data', () => setImmediate(check));
    check();
  });
  await Promise.race([printed, code]);
  const url = /(http:\/\/\S+)/.exec(text.err)?.[1];
  if (!url) throw new Error(`no address printed: ${text.err}`);
  return {
    url,
    text,
    stop: () => {
      stop();
      return code;
    },
  };
}

describe('fino sessions serve', () => {
  it('is dispatched from fino sessions: --help prints its usage', async () => {
    const { io: cliIo, text } = io();
    expect(await sessions.run(['serve', '--help'], cliIo)).toBe(0);
    expect(text.out).toContain('Usage: fino sessions serve');
  });

  it('refuses bad options with usage errors', async () => {
    const bad = async (argv: string[]) => {
      const { io: cliIo, text } = io();
      return { code: await sessions.run(['serve', ...argv], cliIo), err: text.err };
    };
    expect(await bad(['--port', 'eighty'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--port: expected an integer value, received "eighty"'),
    });
    expect((await bad(['--token', 'short'])).err).toContain(
      '--token: expected at least 8 characters',
    );
    expect((await bad(['--verbose'])).err).toContain(
      'unknown option --verbose; expected one of --db, --port',
    );
  });

  it('creates a missing SQLite database, says so, and shows an empty inbox', async () => {
    const path = join(dir, 'new', 'sessions.db');
    // The command as a user runs it, stopped by SIGTERM as by a terminal's Ctrl-C.
    const child = spawn(
      process.execPath,
      ['--import', TSX, RUN_CLI, 'sessions', 'serve', '--db', path, '--port', '0'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = once(child, 'exit');
    let err = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    try {
      while (!err.includes('http://') && child.exitCode === null) {
        await once(child.stderr, 'data');
      }
      expect(err).toContain(`created an empty session database at ${path}`);
      const url = /(http:\/\/\S+)/.exec(err)![1];
      expect(await (await fetch(url)).text()).toContain('Nothing waits for a decision.');
      expect(existsSync(path)).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toEqual([0, null]);
    // Reading commands still refuse a file that is not there: a typo would show nothing.
    const listed = io();
    expect(await sessions.run(['list', '--db', join(dir, 'missing.db')], listed.io)).toBe(2);
    expect(listed.text.err).toContain('no session database at');
    expect(listed.text.err).toContain('"fino sessions serve", which creates it');
  });

  it('takes a token per approver (--token name=secret, repeated) and records who decided', async () => {
    const store = sqliteStore(join(dir, 'approvers.db'));
    await session({ store, agent: shopAgent('order', log) }).start('Ship', { runId: 'run-who' });
    await store.close();
    const server = await started(
      [
        '--db',
        'approvers.db',
        '--port',
        '0',
        '--token',
        'ana=ana-secret-1',
        '--token',
        'bo=bo-secret-22',
      ],
      'approvers.db',
    );
    const origin = new URL(server.url).origin;
    expect(server.url).toBe(`${origin}/`);
    expect(server.text.err).toContain(`  ana: ${origin}/?token=ana-secret-1`);
    expect(server.text.err).toContain(`  bo: ${origin}/?token=bo-secret-22`);
    const entry = await fetch(`${origin}/?token=bo-secret-22`, { redirect: 'manual' });
    const cookie = entry.headers.get('set-cookie')!.split(';')[0];
    const page = await (await fetch(`${origin}/`, { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
    const response = await fetch(`${origin}/runs/run-who/calls/ship_1`, {
      method: 'POST',
      headers: { origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, action: 'approve', by: 'ana' }).toString(),
    });
    expect(response.status).toBe(200);
    expect(await server.stop()).toBe(0);
    const check = sqliteStore(join(dir, 'approvers.db'));
    expect((await session({ store: check }).get('run-who'))?.audit?.[0].by).toBe('bo');
    await check.close();
    const { io: cliIo, text } = io();
    const mixed = await sessions.run(
      ['serve', '--token', 'shared-secret', '--token', 'ana=ana-secret-1'],
      cliIo,
    );
    expect(mixed).toBe(2);
    expect(text.err).toContain('--token: expected name=secret for each of several tokens');
  });

  it('takes who decides from a proxy’s header with --identity-header', async () => {
    const store = sqliteStore(join(dir, 'identity.db'));
    await session({ store, agent: shopAgent('order', log) }).start('Ship', { runId: 'run-id' });
    await store.close();
    const server = await started(
      ['--db', 'identity.db', '--port', '0', '--identity-header', 'X-Forwarded-User'],
      'identity.db',
    );
    const origin = new URL(server.url).origin;
    expect((await fetch(`${origin}/`)).status).toBe(401);
    const as = { 'x-forwarded-user': 'dana' };
    const page = await (await fetch(`${origin}/`, { headers: as })).text();
    expect(page).toContain('Signed in as <strong>dana</strong>');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
    const response = await fetch(`${origin}/runs/run-id/calls/ship_1`, {
      method: 'POST',
      headers: { ...as, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, action: 'approve', by: 'mallory' }).toString(),
    });
    expect(response.status).toBe(200);
    expect(await server.stop()).toBe(0);
    const check = sqliteStore(join(dir, 'identity.db'));
    expect((await session({ store: check }).get('run-id'))?.audit?.[0].by).toBe('dana');
    await check.close();
    const bad = async (argv: string[]) => {
      const { io: cliIo, text } = io();
      return { code: await sessions.run(['serve', ...argv], cliIo), err: text.err };
    };
    expect(await bad(['--identity-header', 'X User'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--identity-header: expected an HTTP header name'),
    });
    expect(
      (await bad(['--identity-header', 'X-User', '--token', 'ana=ana-secret-1'])).err,
    ).toContain('--identity-header: expected it without a token per approver');
  });

  it('shows a workflow database with --workflows: its pending decision is approved over HTTP, once', async () => {
    const workflowDb = join(dir, 'workflows.db');
    const wfStore = sqliteWorkflowStore(workflowDb);
    const shop = workflowShop(wfStore);
    await shop.refunds.start('o-cli', { store: wfStore, runId: 'wf-cli' });
    await shop.worker.drain();
    const server = await started(
      [
        '--db',
        'wf-sessions.db',
        '--port',
        '0',
        '--token',
        'ana=ana-secret-1',
        '--workflows',
        workflowDb,
      ],
      'wf-sessions.db',
    );
    const origin = new URL(server.url).origin;
    const entry = await fetch(`${origin}/?token=ana-secret-1`, { redirect: 'manual' });
    const cookie = entry.headers.get('set-cookie')!.split(';')[0];
    const page = await (await fetch(`${origin}/`, { headers: { cookie } })).text();
    expect(page).toContain('workflow refunds run <a href="/workflows/wf-cli">wf-cli</a>');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
    const decide = () =>
      fetch(`${origin}/workflows/wf-cli/decisions/%24call%3Arefund`, {
        method: 'POST',
        headers: { origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, action: 'approve' }).toString(),
      });
    expect((await decide()).status).toBe(200);
    expect((await decide()).status).toBe(409);
    expect(await server.stop()).toBe(0);
    await shop.worker.drain();
    expect(await shop.refunds.result('wf-cli', { store: wfStore })).toEqual({
      content: 'refunded o-cli',
    });
    expect((await shop.refunds.get('wf-cli', { store: wfStore })).audit?.[0].by).toBe('ana');
    expect(shop.executions.refund).toBe(1);
    await wfStore.close();

    const { io: cliIo, text } = io();
    expect(await sessions.run(['serve', '--workflows', 'missing.db'], cliIo)).toBe(2);
    expect(text.err).toContain(`no workflow database at ${join(dir, 'missing.db')}`);
  });

  it('serves the inbox; approving there continues the run with --agent', async () => {
    const store = sqliteStore(join(dir, 'serve.db'));
    await session({ store, agent: shopAgent('order', log) }).start('Ship', { runId: 'run-serve' });
    await store.close();
    const server = await started(
      ['--db', 'serve.db', '--port', '0', '--agent', 'x.ts'],
      'serve.db',
    );
    expect(server.text.err).toContain('(decisions continue runs here)');
    const origin = new URL(server.url).origin;
    const page = await (await fetch(server.url)).text();
    expect(page).toContain('run-serve');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const response = await fetch(`${origin}/runs/run-serve/calls/ship_1`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, action: 'approve', by: 'ana' }).toString(),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Approved. The run is now done.');
    expect(readLog(log).filter((e) => e.key === 'run-serve:ship_1')).toHaveLength(1);
    expect(await server.stop()).toBe(0);
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('makes up a token when bound beyond loopback without one', async () => {
    const store = sqliteStore(join(dir, 'wide.db'));
    await session({ store }).list();
    await store.close();
    const server = await started(
      ['--db', 'wide.db', '--port', '0', '--host', '0.0.0.0'],
      'wide.db',
    );
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/\?token=[\w-]{32}$/);
    const port = new URL(server.url).port;
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(401);
    const entry = await fetch(`http://127.0.0.1:${port}/${new URL(server.url).search}`, {
      redirect: 'manual',
    });
    expect(entry.status).toBe(303);
    expect(entry.headers.get('set-cookie')).toContain('HttpOnly; SameSite=Strict');
    expect(await server.stop()).toBe(0);
  });
});
