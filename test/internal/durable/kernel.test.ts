/**
 * The durable-decisions kernel on a store of its own (a `jobs` table with leases, pending
 * decisions and an audit trail), over SQLite and, when a server is at hand, PostgreSQL:
 * a late writer fenced once its lease expired, a token decided twice, a decision that does
 * not fit its call, lazy migrations, corrupt rows skipped by a claim, and the store
 * constructors' checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alreadyDecidedMessage,
  appendAudit,
  claimSkipping,
  decisionAction,
  decisionMismatch,
  decodeAuditRow,
  findPendingRow,
  fittingActions,
  hashToken,
  isDecision,
  lazySchema,
  leaseExpired,
  newToken,
  oldestUnlocked,
  postgresArguments,
  sqliteArguments,
  takeLeaseSet,
  writeIfHeld,
} from '../../../src/internal/durable/index.ts';
import {
  type Migration,
  postgresDriver,
  type SqlDriver,
  type SqlExecutor,
  sqliteDriver,
} from '../../../src/internal/sql/index.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';

type JobTable = 'jobs' | 'job_pending' | 'job_audit' | 'job_migrations';
const migrations: Migration<JobTable>[] = [
  {
    version: 1,
    name: 'jobs with leases, pending decisions, audit',
    sql: (t, dialect) => `
      CREATE TABLE ${t('jobs')} (run_id TEXT PRIMARY KEY, status TEXT NOT NULL, body TEXT,
        lease_owner TEXT, lease_expires_at BIGINT, updated_at BIGINT NOT NULL);
      CREATE TABLE ${t('job_pending')} (token_hash TEXT PRIMARY KEY, run_id TEXT NOT NULL,
        decision_id TEXT NOT NULL, decision TEXT);
      CREATE TABLE ${t('job_audit')} (
        id ${dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'},
        run_id TEXT NOT NULL, at BIGINT NOT NULL, action TEXT NOT NULL, decision_id TEXT,
        tool_name TEXT, actor TEXT, note TEXT);`,
  },
];
const schema = {
  migrations,
  versionsTable: 'job_migrations' as const,
  database: 'the job database',
};

const postgres = postgresForTests();

const drivers: Array<[string, () => Promise<SqlDriver<JobTable> | undefined>]> = [
  [
    'SQLite',
    async () =>
      sqliteDriver(':memory:', {
        busyTimeoutMs: 0,
        store: 'jobStore()',
        database: 'the job database',
      }),
  ],
  [
    'PostgreSQL',
    async () => {
      const server = await postgres();
      return (
        server &&
        postgresDriver(server.url, {
          schema: await freshSchema(server.url),
          store: 'jobStore()',
          database: 'the job database',
        })
      );
    },
  ],
];

/** A claimable job: ready, or running past its lease. */
const claimable = (driver: SqlDriver<JobTable>) =>
  `(status = 'ready' OR (status = 'running' AND ${leaseExpired(driver)}))`;

async function claim(
  driver: SqlDriver<JobTable>,
  owner: string,
  leaseMs: number,
  skip: readonly string[] = [],
) {
  const jobs = driver.table('jobs');
  const notIn = skip.length > 0 ? ` AND run_id NOT IN (${skip.map(() => '?').join(', ')})` : '';
  return driver.transaction(async (tx) => {
    const [row] = await tx.query<{ run_id: string; body: string | null }>(
      `UPDATE ${jobs} SET ${takeLeaseSet(driver)}
       WHERE ${oldestUnlocked(driver, jobs, `${claimable(driver)}${notIn}`, 'updated_at, run_id')}
       RETURNING run_id, body`,
      [owner, leaseMs, ...skip],
    );
    if (row?.body === 'corrupt')
      throw Object.assign(new Error('unreadable'), { runId: row.run_id });
    return row?.run_id;
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(drivers)('the durable kernel on %s', (_name, open) => {
  let driver: SqlDriver<JobTable>;
  let ready: () => Promise<void>;
  beforeAll(async () => {
    const opened = await open();
    if (!opened) return;
    driver = opened;
    ready = lazySchema(driver, schema);
    await ready();
  }, 60_000);
  afterAll(() => driver?.close());
  const t = (name: JobTable) => driver.table(name);
  const skipWithoutServer = () => driver === undefined;

  it('fences a late writer once its lease expired and another worker took the job', async (ctx) => {
    if (skipWithoutServer()) return ctx.skip();
    await driver.query(
      `INSERT INTO ${t('jobs')} (run_id, status, updated_at) VALUES ('j1', 'ready', ${driver.nowMs})`,
    );
    expect(await claim(driver, 'early', 1)).toBe('j1');
    await sleep(20); // the lease runs out
    expect(await claim(driver, 'late', 60_000)).toBe('j1');
    const write = (body: string) => ({ table: t('jobs'), set: 'body = ?', params: [body] });
    expect(await writeIfHeld(driver, write('from early'), 'j1', 'early')).toEqual([]);
    expect(await writeIfHeld(driver, write('from late'), 'j1', 'late')).toEqual([{ run_id: 'j1' }]);
    const [row] = await driver.query<{ body: string; lease_owner: string }>(
      `SELECT body, lease_owner FROM ${t('jobs')} WHERE run_id = 'j1'`,
    );
    expect(row).toEqual({ body: 'from late', lease_owner: 'late' });
  });

  it('skips an unreadable job while claiming, leaves it untouched, and reports it', async (ctx) => {
    if (skipWithoutServer()) return ctx.skip();
    await driver.query(
      `INSERT INTO ${t('jobs')} (run_id, status, body, updated_at) VALUES ('j2', 'ready', 'corrupt', 0), ('j3', 'ready', NULL, 1)`,
    );
    const result = await claimSkipping<string, Error & { runId: string }>(
      (skip) => claim(driver, 'w', 60_000, skip),
      (error) => (error as { runId?: string }).runId,
      ['j1'],
    );
    expect(result.run).toBe('j3');
    expect(result.corrupt.map((error) => error.runId)).toEqual(['j2']);
    const [j2] = await driver.query<{ status: string; lease_owner: string | null }>(
      `SELECT status, lease_owner FROM ${t('jobs')} WHERE run_id = 'j2'`,
    );
    expect(j2).toEqual({ status: 'ready', lease_owner: null });
  });

  it('keeps only a token hash, finds the decision by token or by run and id, and refuses a second decision', async (ctx) => {
    if (skipWithoutServer()) return ctx.skip();
    const token = newToken();
    await driver.query(
      `INSERT INTO ${t('job_pending')} (token_hash, run_id, decision_id) VALUES (?, 'j3', 'd1')`,
      [hashToken(token)],
    );
    const sql = {
      table: t('job_pending'),
      byIdSql: `SELECT * FROM ${t('job_pending')} WHERE run_id = ? AND decision_id = ?`,
    };
    type Row = { token_hash: string; decision: string | null };
    const decide = (tx: SqlExecutor, ref: string | { runId: string; id: string }, by: string) =>
      findPendingRow<Row>(tx, ref, sql).then(async (row) => {
        if (!row) throw new Error('not found');
        const where = `decision "d1" of job "j3"`;
        const subject = { column: 'decision_id', id: 'd1' } as const;
        if (row.decision !== null) {
          throw new Error(await alreadyDecidedMessage(tx, t('job_audit'), where, 'j3', subject));
        }
        await tx.query(`UPDATE ${t('job_pending')} SET decision = ? WHERE token_hash = ?`, [
          JSON.stringify({ approve: true }),
          row.token_hash,
        ]);
        await appendAudit(tx, t('job_audit'), driver.nowMs, {
          runId: 'j3',
          action: 'approve',
          subject: { ...subject, toolName: 'refund' },
          actor: by,
          note: null,
        });
      });
    expect(await findPendingRow(driver, token.slice(1), sql)).toBeUndefined(); // not a token
    const stored = await driver.query<{ token_hash: string }>(
      `SELECT token_hash FROM ${t('job_pending')}`,
    );
    expect(JSON.stringify(stored)).not.toContain(token);
    await driver.transaction((tx) => decide(tx, token, 'ana'));
    await expect(driver.transaction((tx) => decide(tx, token, 'ben'))).rejects.toThrow(
      /^decision "d1" of job "j3" was already decided \(approve by ana at \d{4}-.*Z\); a token is single-use$/,
    );
    await expect(
      driver.transaction((tx) => decide(tx, { runId: 'j3', id: 'd1' }, 'ben')),
    ).rejects.toThrow(/already decided \(approve by ana/);
    const audit = await driver.query<Parameters<typeof decodeAuditRow>[0]>(
      `SELECT * FROM ${t('job_audit')} WHERE run_id = 'j3' ORDER BY id`,
    );
    expect(
      audit.map((row) => decodeAuditRow(row, { column: 'decision_id', key: 'decisionId' })),
    ).toEqual([
      {
        at: expect.any(String),
        action: 'approve',
        decisionId: 'd1',
        toolName: 'refund',
        by: 'ana',
      },
    ]);
  });
});

describe('which decision fits which call', () => {
  it('answers an approval by approving or rejecting, a suspension by resuming or rejecting', () => {
    expect(fittingActions('approval')).toEqual(['approve', 'reject']);
    expect(fittingActions('suspend')).toEqual(['resume', 'reject']);
    expect(decisionMismatch({ kind: 'approval' }, { approve: true })).toBeUndefined();
    expect(decisionMismatch({ kind: 'suspend' }, { reject: 'no' })).toBeUndefined();
    expect(decisionMismatch({ kind: 'approval' }, { resume: 42 })).toBe(
      'waits for an approval; answer { approve: true } or { reject: reason }, not { resume }',
    );
    expect(decisionMismatch({ kind: 'suspend', reason: 'Which size?' }, { approve: true })).toBe(
      'is suspended ("Which size?"); answer { resume: value } or { reject: reason }, not { approve }',
    );
  });

  it('tells a decision from anything else, and names its action', () => {
    expect([{ approve: true }, { reject: 'r' }, { resume: null }].every(isDecision)).toBe(true);
    expect([null, 'approve', { approve: false }, { reject: 1 }, {}].some(isDecision)).toBe(false);
    expect(decisionAction({ reject: 'r' })).toBe('reject');
    expect(decisionAction({ resume: 1 })).toBe('resume');
  });
});

describe('lazy migrations', () => {
  it('migrates once, and again on the next call after a failure', async () => {
    let calls = 0;
    const failing = {
      ...sqliteDriver(':memory:', { busyTimeoutMs: 0, store: 'x()', database: 'x' }),
      transaction: async () => {
        calls++;
        throw new Error('down');
      },
    } as unknown as SqlDriver<JobTable>;
    const ready = lazySchema(failing, schema);
    await expect(ready()).rejects.toThrow('down');
    await expect(ready()).rejects.toThrow('down');
    expect(calls).toBe(2);
    const driver = sqliteDriver(':memory:', {
      busyTimeoutMs: 0,
      store: 'x()',
      database: 'x',
    }) as SqlDriver<JobTable>;
    const once = lazySchema(driver, schema);
    expect(once()).toBe(once());
    await once();
    await driver.close();
  });
});

describe("the store constructors' checks", () => {
  it('names the constructor and what it received', () => {
    expect(() => sqliteArguments('jobStore', '', undefined)).toThrow(
      'jobStore(path): expected a file path, received ',
    );
    expect(sqliteArguments('jobStore', 'x.db', undefined)).toEqual({
      path: 'x.db',
      busyTimeoutMs: 10_000,
    });
    const invalid = (message: string) => new RangeError(message);
    expect(() => postgresArguments('jobStore', {}, undefined, invalid)).toThrow(
      'jobStore(urlOrPool): expected a postgres:// URL or a pg.Pool, received an object that is not a pg.Pool',
    );
    expect(() => postgresArguments('jobStore', 42, undefined, invalid)).toThrow(/received number$/);
    expect(() => postgresArguments('jobStore', 'postgres://x', 'a; b', invalid)).toThrow(
      RangeError,
    );
  });
});
