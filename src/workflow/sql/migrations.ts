/**
 * The workflow stores' schema: their own tables and migration list, applied by the
 * shared SQL layer's migrations runner once per store.
 */
import type { Migration, Schema } from '../../internal/sql/index.ts';
import { wakeTriggerSql } from './wake-channel.ts';

/** The workflow tables, qualified by the store's schema when it has one. */
export type WorkflowTable =
  | 'workflow_runs'
  | 'workflow_history'
  | 'workflow_signals'
  | 'workflow_pending'
  | 'workflow_audit'
  | 'workflow_migrations'
  | 'workflow_streams'
  | 'workflow_stream_chunks'
  | 'workflow_requests'
  | 'workflow_schedules'
  | 'workflow_workers';

/** Every schema change so far, oldest first. Never edit one that shipped: add the next. */
const MIGRATIONS: readonly Migration<WorkflowTable>[] = [
  {
    version: 1,
    name: 'workflow runs, their histories and signals',
    sql: (t, dialect) => `
      CREATE TABLE ${t('workflow_runs')} (
        run_id TEXT PRIMARY KEY,
        workflow_id TEXT NOT NULL,
        run_key TEXT,
        status TEXT NOT NULL,
        format INTEGER NOT NULL,
        input TEXT,
        output TEXT,
        error TEXT,
        waiting TEXT,
        wake_at BIGINT,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        lease_owner TEXT,
        lease_expires_at BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (workflow_id, run_key)
      );
      CREATE INDEX fino_workflow_runs_wake ON ${t('workflow_runs')} (wake_at);
      CREATE INDEX fino_workflow_runs_status ON ${t('workflow_runs')} (workflow_id, status, created_at);
      CREATE TABLE ${t('workflow_history')} (
        run_id TEXT NOT NULL REFERENCES ${t('workflow_runs')} (run_id) ON DELETE CASCADE,
        entry_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (run_id, entry_id)
      );
      CREATE TABLE ${t('workflow_signals')} (
        id ${dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'},
        run_id TEXT NOT NULL REFERENCES ${t('workflow_runs')} (run_id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        payload TEXT,
        consumed_by TEXT,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX fino_workflow_signals_run ON ${t('workflow_signals')} (run_id, name, id);`,
  },
  {
    version: 2,
    name: 'pending decisions with token hashes, and the audit trail',
    sql: (t, dialect) => `
      CREATE TABLE ${t('workflow_pending')} (
        token_hash TEXT PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES ${t('workflow_runs')} (run_id) ON DELETE CASCADE,
        decision_id TEXT NOT NULL,
        call TEXT NOT NULL,
        decision TEXT,
        created_at BIGINT NOT NULL,
        UNIQUE (run_id, decision_id)
      );
      CREATE TABLE ${t('workflow_audit')} (
        id ${dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'},
        run_id TEXT NOT NULL,
        at BIGINT NOT NULL,
        action TEXT NOT NULL,
        decision_id TEXT,
        tool_name TEXT,
        actor TEXT,
        note TEXT
      );
      CREATE INDEX fino_workflow_audit_run ON ${t('workflow_audit')} (run_id, id);`,
  },
  {
    version: 3,
    name: 'child runs: the parent a child wakes when it ends',
    sql: (t) => `ALTER TABLE ${t('workflow_runs')} ADD COLUMN parent_run_id TEXT`,
  },
  {
    version: 4,
    name: 'the signal names a run takes, recorded when it starts (decision 181)',
    sql: (t) => `ALTER TABLE ${t('workflow_runs')} ADD COLUMN signals TEXT`,
  },
  {
    version: 5,
    name: 'schedules: cron and interval ticks that start runs (decision 221)',
    sql: (t) => `
      CREATE TABLE ${t('workflow_schedules')} (
        schedule_id TEXT PRIMARY KEY,
        workflow_id TEXT NOT NULL,
        settings TEXT NOT NULL,
        input TEXT,
        paused INTEGER NOT NULL DEFAULT 0,
        next_tick BIGINT,
        due_at BIGINT,
        last_tick BIGINT,
        last_run_id TEXT,
        fired BIGINT NOT NULL DEFAULT 0,
        missed BIGINT NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX fino_workflow_schedules_due ON ${t('workflow_schedules')} (paused, due_at);`,
  },
  {
    version: 6,
    name: 'queries and updates sent to runs (decision 224)',
    sql: (t, dialect) => `
      CREATE TABLE ${t('workflow_requests')} (
        id ${dialect === 'postgres' ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'},
        run_id TEXT NOT NULL REFERENCES ${t('workflow_runs')} (run_id) ON DELETE CASCADE,
        request_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        args TEXT,
        state TEXT NOT NULL,
        result TEXT,
        error TEXT,
        created_at BIGINT NOT NULL,
        UNIQUE (run_id, request_id)
      );
      CREATE INDEX fino_workflow_requests_open ON ${t('workflow_requests')} (run_id, state, id);`,
  },
  {
    version: 7,
    name: 'streams out of a run, and their chunks (decision 227)',
    sql: (t) => `
      CREATE TABLE ${t('workflow_streams')} (
        run_id TEXT NOT NULL REFERENCES ${t('workflow_runs')} (run_id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        closed_at BIGINT,
        PRIMARY KEY (run_id, name)
      );
      CREATE TABLE ${t('workflow_stream_chunks')} (
        run_id TEXT NOT NULL REFERENCES ${t('workflow_runs')} (run_id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        chunk_offset BIGINT NOT NULL,
        value TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (run_id, name, chunk_offset)
      );`,
  },
  {
    version: 8,
    name: 'continue-as-new: the runs a run continued from and to, and its chain (decision 229)',
    sql: (t) => `
      ALTER TABLE ${t('workflow_runs')} ADD COLUMN continued_from TEXT;
      ALTER TABLE ${t('workflow_runs')} ADD COLUMN continued_to TEXT;
      ALTER TABLE ${t('workflow_runs')} ADD COLUMN chain_root TEXT;
      CREATE INDEX fino_workflow_runs_chain ON ${t('workflow_runs')} (chain_root, continued_to);`,
  },
  {
    version: 9,
    name: "a child's policy when its parent is cancelled; the run a fork copied (decisions 232, 234)",
    sql: (t) => `
      ALTER TABLE ${t('workflow_runs')} ADD COLUMN on_parent_cancel TEXT;
      ALTER TABLE ${t('workflow_runs')} ADD COLUMN forked_from TEXT;
      ALTER TABLE ${t('workflow_runs')} ADD COLUMN forked_at_step TEXT;`,
  },
  {
    version: 10,
    name: 'worker identities, and a NOTIFY when a run falls due (decisions 238 and 239)',
    sql: (t, dialect) => `
      CREATE TABLE ${t('workflow_workers')} (
        identity TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started_at BIGINT NOT NULL
      );${dialect === 'postgres' ? wakeTriggerSql(t('workflow_runs')) : ''}`,
  },
];

/** The workflow database's schema, for the shared migrations runner. */
export const WORKFLOW_SCHEMA: Schema<WorkflowTable> = {
  migrations: MIGRATIONS,
  versionsTable: 'workflow_migrations',
  database: 'the workflow database',
};
