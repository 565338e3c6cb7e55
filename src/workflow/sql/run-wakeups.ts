/**
 * Wake-ups of the workflow store (decision 238): workers hear that a run may have fallen
 * due instead of waiting for their next poll. On PostgreSQL the database sends them
 * (`wake-channel.ts`: a trigger's `NOTIFY`, heard by `LISTEN` on a connection of its own
 * that listens again after an outage). SQLite and memory databases have no notifications:
 * the writes that make a run due tell this process's workers themselves, after they
 * commit; workers in other processes find the run at their next poll.
 */
import type { WorkflowStore } from '../types.ts';
import type { WorkflowSql } from './store-context.ts';
import { wakeChannel } from './wake-channel.ts';

/**
 * The store's writes after which a run may be due: a start, a signal, a decision, a
 * cancellation, a release, a park (a timer), an end (a parent waits), a query or an
 * update, a successor (continue-as-new), a retry or a fork, and a new or resumed schedule.
 */
const WAKING = [
  'create',
  'signal',
  'cancel',
  'decide',
  'release',
  'park',
  'finish',
  'sendRequest',
  'continueAsNew',
  'retry',
  'fork',
  'createSchedule',
  'pauseSchedule',
] as const;

type Parts = Omit<WorkflowStore, 'wakeups' | 'claimIdentity'>;

/** `parts` with `wakeups`, their waking writes notifying this process where the database does not. */
export function withWakeups<T extends Parts>(
  sql: WorkflowSql,
  parts: T,
): T & Pick<WorkflowStore, 'wakeups'> {
  const { driver } = sql;
  const channel = wakeChannel(sql.runs);
  const woken: Partial<Parts> = {};
  if (driver.notify) {
    const notify = driver.notify;
    for (const name of WAKING) {
      const write = parts[name] as (...args: unknown[]) => Promise<unknown>;
      (woken as Record<string, unknown>)[name] = async (...args: unknown[]) => {
        const result = await write(...args);
        notify(channel);
        return result;
      };
    }
  }
  return {
    ...parts,
    ...woken,
    wakeups(workflowIds, onWake) {
      if (!driver.listen) return { close: async () => {} };
      const served = new Set(workflowIds);
      return driver.listen(channel, (workflowId) => {
        if (workflowId === undefined || served.has(workflowId)) onWake();
      });
    },
  };
}
