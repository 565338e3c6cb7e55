/**
 * The session store's schema: its tables, and every change to them, applied by the
 * shared migration runner (`src/internal/sql/migrate.ts`).
 */

import { hashToken } from '../../../internal/durable/index.ts';
import type { Migration, Schema, SqlDriver } from '../../../internal/sql/index.ts';

/** The session store's tables (each `fino_<name>`). */
export type SessionTable =
  | 'runs'
  | 'pending'
  | 'audit'
  | 'migrations'
  | 'mcp_tasks'
  /** PostgreSQL's sequence of run revisions (migration 5; SQLite needs none). */
  | 'run_revisions'
  /** A thread's length, active run and latest summary (migration 6). */
  | 'threads'
  /** A thread's messages, one row each, with a token estimate (migration 6). */
  | 'thread_messages'
  /** The events of runs a session records (`events` option), one row each (migration 9). */
  | 'run_events';

/** Names a table, qualified by the store's schema when it has one. */
export type TableName = (table: SessionTable) => string;

/** A SQL driver as the session store uses it: over the session's tables. */
export type SessionDriver = SqlDriver<SessionTable>;

/** Every schema change so far, oldest first. Never edit one that shipped: add the next. */
export const MIGRATIONS: readonly Migration<SessionTable>[] = [
  {
    version: 1,
    name: 'runs, pending calls with tokens, audit trail',
    sql: (t, dialect) => `
      CREATE TABLE ${t('runs')} (
        run_id TEXT PRIMARY KEY,
        thread_id TEXT,
        status TEXT NOT NULL,
        format INTEGER NOT NULL,
        input TEXT NOT NULL,
        state TEXT,
        text TEXT,
        error TEXT,
        round INTEGER NOT NULL DEFAULT 0,
        lease_owner TEXT,
        lease_expires_at BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX fino_runs_claimable ON ${t('runs')} (status, updated_at);
      CREATE INDEX fino_runs_thread ON ${t('runs')} (thread_id);
      CREATE TABLE ${t('pending')} (
        token TEXT PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES ${t('runs')} (run_id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        tool_call_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        call TEXT NOT NULL,
        decision TEXT,
        UNIQUE (run_id, round, tool_call_id)
      );
      CREATE TABLE ${t('audit')} (
        id ${dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'},
        run_id TEXT NOT NULL,
        at BIGINT NOT NULL,
        action TEXT NOT NULL,
        tool_call_id TEXT,
        tool_name TEXT,
        actor TEXT,
        note TEXT
      );
      CREATE INDEX fino_audit_run ON ${t('audit')} (run_id, id);`,
  },
  {
    version: 2,
    name: 'approval tokens kept as SHA-256 hashes',
    sql: (t) => `ALTER TABLE ${t('pending')} RENAME COLUMN token TO token_hash`,
    async data(db, t) {
      const rows = await db.query<{ token_hash: string }>(`SELECT token_hash FROM ${t('pending')}`);
      for (const { token_hash: token } of rows) {
        await db.query(`UPDATE ${t('pending')} SET token_hash = ? WHERE token_hash = ?`, [
          hashToken(token),
          token,
        ]);
      }
    },
  },
  {
    version: 3,
    name: "the last progress of a run's running tool",
    sql: (t) => `ALTER TABLE ${t('runs')} ADD COLUMN progress TEXT`,
  },
  {
    version: 4,
    name: 'MCP tasks: the client that owns each run served as an MCP task, and its retention',
    sql: (t) => `
      CREATE TABLE ${t('mcp_tasks')} (
        task_id TEXT PRIMARY KEY,
        owner_key TEXT NOT NULL,
        session_id TEXT,
        tool_name TEXT NOT NULL,
        arguments TEXT NOT NULL,
        ttl_ms BIGINT,
        expires_at BIGINT,
        status_message TEXT,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX fino_mcp_tasks_owner ON ${t('mcp_tasks')} (owner_key, created_at, task_id);
      CREATE INDEX fino_mcp_tasks_expiry ON ${t('mcp_tasks')} (expires_at);`,
  },
  {
    version: 5,
    name: 'run revisions: an order of changes that millisecond timestamps cannot tie',
    sql: (t, dialect) => `
      ALTER TABLE ${t('runs')} ADD COLUMN revision BIGINT;
      UPDATE ${t('runs')} SET revision = (
        SELECT COUNT(*) FROM ${t('runs')} o
        WHERE o.updated_at < ${t('runs')}.updated_at
           OR (o.updated_at = ${t('runs')}.updated_at AND o.run_id <= ${t('runs')}.run_id));
      CREATE INDEX fino_runs_revision ON ${t('runs')} (revision);${
        dialect === 'postgres'
          ? `
      CREATE SEQUENCE ${t('run_revisions')};
      SELECT setval('${t('run_revisions')}', (SELECT COALESCE(MAX(revision), 0) + 1 FROM ${t('runs')}), false);`
          : ''
      }`,
  },
  {
    version: 6,
    name: 'threads: messages with token estimates, the active run, the latest summary; run usage',
    // `fino_threads.active_run_id` is the thread's lock: taken in the transaction that
    // inserts the run, released in the one that ends it (decision 148). The primary key
    // (thread_id, position) is the index a start reads the newest messages by, backwards.
    // A run left unfinished by an earlier version holds its thread (one of them, if
    // several); earlier runs' messages are not copied in: the thread starts empty.
    sql: (t) => `
      CREATE TABLE ${t('threads')} (
        thread_id TEXT PRIMARY KEY,
        active_run_id TEXT,
        message_count INTEGER NOT NULL DEFAULT 0,
        summary TEXT,
        summary_through INTEGER,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE ${t('thread_messages')} (
        thread_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        run_id TEXT,
        message TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        PRIMARY KEY (thread_id, position)
      );
      ALTER TABLE ${t('runs')} ADD COLUMN thread_start INTEGER;
      ALTER TABLE ${t('runs')} ADD COLUMN thread_loaded INTEGER;
      ALTER TABLE ${t('runs')} ADD COLUMN usage TEXT;
      INSERT INTO ${t('threads')} (thread_id, active_run_id, message_count, created_at, updated_at)
        SELECT thread_id, MAX(run_id), 0, MIN(created_at), MAX(updated_at) FROM ${t('runs')}
        WHERE thread_id IS NOT NULL AND status IN ('running', 'ready', 'suspended', 'error')
        GROUP BY thread_id;`,
  },
  {
    version: 7,
    name: "the code of a failed run's error (BUDGET_EXCEEDED, …)",
    sql: (t) => `ALTER TABLE ${t('runs')} ADD COLUMN error_code TEXT`,
  },
  {
    version: 8,
    name: "a thread's active agent after a handoff",
    sql: (t) => `ALTER TABLE ${t('threads')} ADD COLUMN agent TEXT`,
  },
  {
    version: 9,
    name: "run events: a run's AgentEvents in order, with its log's size and the status a claim took it from",
    // `event_seq`, `event_bytes` and `events_truncated` are the run's log as its lease
    // holder appends to it under the run's row lock (decision 251); `claimed_from` is the
    // status the last claim took the run from, which names a takeover (decision 250).
    sql: (t) => `
      CREATE TABLE ${t('run_events')} (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at BIGINT NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
      ALTER TABLE ${t('runs')} ADD COLUMN event_seq INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ${t('runs')} ADD COLUMN event_bytes BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE ${t('runs')} ADD COLUMN events_truncated INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ${t('runs')} ADD COLUMN claimed_from TEXT;`,
  },
];

/** What the migration runner needs to bring a session database up to date. */
export const SESSION_SCHEMA: Schema<SessionTable> = {
  migrations: MIGRATIONS,
  versionsTable: 'migrations',
  database: 'the session database',
};
