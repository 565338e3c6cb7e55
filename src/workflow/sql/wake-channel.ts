/**
 * The channel a workflow store's wake-ups travel on, and the PostgreSQL trigger that
 * sends them: every insert or update that leaves a run due for any worker — unleased,
 * running or waiting, with a wake time (a start, a signal, a decision, a cancellation, a
 * release, a child's end, a new timer) — sends `NOTIFY <channel>, <workflow id>` when its
 * transaction commits, with no statement of the store's own. Decision 238.
 */

/** The channel of the store whose runs table is `runs` (a plain identifier, ≤ 63 bytes). */
export const wakeChannel = (runs: string): string =>
  `fino_wake_${runs.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 63);

/** The trigger function and trigger, created by migration 10 on PostgreSQL. */
export const wakeTriggerSql = (runs: string): string => `
  CREATE FUNCTION ${runs}_wake() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('${wakeChannel(runs)}', NEW.workflow_id);
    RETURN NULL;
  END $$;
  CREATE TRIGGER fino_workflow_runs_wake AFTER INSERT OR UPDATE ON ${runs}
    FOR EACH ROW WHEN (NEW.wake_at IS NOT NULL AND NEW.lease_owner IS NULL AND NEW.status IN ('running', 'waiting'))
    EXECUTE FUNCTION ${runs}_wake();`;
