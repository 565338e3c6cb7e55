/**
 * The MCP Tasks options of `mcpServer()`, checked, and where the tasks are stored.
 */
import { join } from 'node:path';
import { checkDuration } from '../../../internal/duration.ts';
import { type McpTaskStore, mcpTaskStore, type Store, sqliteStore } from '../../session/index.ts';

/** How `mcpServer()` keeps and runs MCP tasks. Every duration is in milliseconds, > 0 and ≤ 2^31 − 1. */
export interface McpServerTaskOptions {
  /**
   * The longest a task is kept from its creation (default 3 600 000, one hour); a
   * client's `params.task.ttl` is cut to it, and is it when the client asks none.
   */
  maxTtlMs?: number;
  /** How often clients are told to poll, and how often the server looks for tasks to continue (default 1 000). */
  pollIntervalMs?: number;
  /**
   * How long a server's claim on a running task lasts without renewal (default 30 000).
   * When the server dies, another one (or itself, restarted) takes the task over once
   * the claim expires.
   */
  leaseMs?: number;
}

/** The default store of MCP tasks, relative to the working directory. */
export const DEFAULT_MCP_TASKS_PATH = join('.fino', 'mcp-tasks.db');

/** The checked task options, and the task store opened on first use. */
export function taskSetting(options: { store?: Store; tasks?: McpServerTaskOptions }) {
  const tasks = options.tasks === undefined ? {} : options.tasks;
  if (typeof tasks !== 'object' || tasks === null) {
    throw new TypeError(
      `mcpServer: tasks: expected an object such as { maxTtlMs: 3600000 }, received ${tasks === null ? 'null' : typeof tasks}`,
    );
  }
  const store = options.store;
  if (store !== undefined && (store === null || typeof store.claim !== 'function')) {
    throw new TypeError(
      'mcpServer: store: expected a fino session store (sqliteStore(), postgresStore(), memoryStore())',
    );
  }
  let records: McpTaskStore | undefined;
  return {
    maxTtlMs: checkDuration('mcpServer: tasks.maxTtlMs', tasks.maxTtlMs ?? 3_600_000),
    pollIntervalMs: checkDuration('mcpServer: tasks.pollIntervalMs', tasks.pollIntervalMs ?? 1_000),
    leaseMs: checkDuration('mcpServer: tasks.leaseMs', tasks.leaseMs ?? 30_000),
    records: () => {
      records ??= mcpTaskStore(store ?? sqliteStore(DEFAULT_MCP_TASKS_PATH));
      return records;
    },
  };
}
