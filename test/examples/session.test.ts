/**
 * examples/session end to end, each step in its own process as a user runs it: start a
 * run, approve it with the `fino` binary, finish it in a worker. SQLite by default (in a
 * fresh working directory), then PostgreSQL by URL. The binary runs the built CLI: needs
 * `npm run build` first (`npm test` does it).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { postgresForTests } from '../helpers/postgres-for-tests.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);
/** The environment without FINO_DATABASE_URL, so the SQLite default applies unless `--db` says otherwise. */
const { FINO_DATABASE_URL: _unset, ...env } = process.env;
const root = join(import.meta.dirname, '..', '..');
const dir = tempDir('session-example');
const TIMEOUT_MS = 120_000; // four processes on a loaded machine

/** Runs an example script with tsx, from `dir`, resolving `fino:` through the project's tsconfig. */
const script = (name: string, ...args: string[]) =>
  exec(
    process.execPath,
    [
      '--import',
      join(root, 'node_modules/tsx/dist/loader.mjs'),
      join(root, 'examples/session', name),
      ...args,
    ],
    {
      cwd: dir,
      env: { ...env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
    },
  );

/** Runs the `fino` binary from `dir`. */
const fino = (...args: string[]) =>
  exec(process.execPath, [join(root, 'bin/fino.js'), ...args], {
    cwd: dir,
    env,
  });

const postgres = postgresForTests();

/** The example's three steps; `inspect` adds the CLI's list and show (checked once, on SQLite, to keep the test fast). */
async function approvalFlow(db: string[], inspect: boolean) {
  const started = await script('start.ts', ...db);
  const runId = /run (\S+): suspended/.exec(started.stdout)?.[1];
  const token = /approve ([A-Za-z0-9_-]{32})/.exec(started.stdout)?.[1];
  expect(started.stdout).toContain(
    'pending approval: refund({"orderId":"o-17","amount":89}), risk high',
  );
  expect(runId && token).toBeTruthy();

  if (inspect) {
    const listed = await fino('sessions', 'list', '--status', 'suspended', ...db);
    expect(listed.stdout).toContain(`${runId}  suspended`);
    expect(listed.stdout).toContain(`decide: fino sessions approve ${runId} call_refund`);
  }

  const approved = await fino(
    'sessions',
    'approve',
    token!,
    '--by',
    'ana',
    '--note',
    'item received',
    ...db,
  );
  expect(approved.stdout).toContain(`${runId}  ready`);

  const finished = await script('finish.ts', ...db);
  expect(finished.stdout).toContain(`run ${runId}: done`);
  expect(finished.stdout).toContain(
    `Refunded 89 EUR for o-17 (idempotency key ${runId}:call_refund)`,
  );

  if (inspect) {
    const shown = await fino('sessions', 'show', runId!, ...db);
    expect(shown.stdout).toMatch(/audit \S+ approve call_refund by ana: item received/);
  }
}

describe.concurrent('examples/session', () => {
  it(
    'approves from the CLI and finishes in another process, on SQLite by default',
    async () => {
      await approvalFlow([], true);
    },
    TIMEOUT_MS,
  );

  it(
    'does the same on PostgreSQL given by URL',
    async (ctx) => {
      const server = await postgres();
      if (!server) return ctx.skip();
      await approvalFlow(['--db', server.url], false);
    },
    TIMEOUT_MS,
  );
});
