/**
 * The MCP Tasks options of `mcpServer()`, checked, and where the tasks are stored.
 */
import { join } from 'node:path';
import { describeValue } from '../../../../internal/describe-value.ts';
import { checkDuration } from '../../../../internal/duration.ts';
import { type Store, sqliteStore } from '../../../session/index.ts';
import { UNNAMED_TASK_STORE } from '../approval-hint.ts';
import { type McpTaskStore, mcpTaskStore } from './task-store.ts';

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
  /** The most tasks running at once in this server (default 16); the rest wait in a queue. */
  maxRunning?: number;
  /** The most tasks of one owner running at once (default 4); its others wait in the queue. */
  maxRunningPerOwner?: number;
  /** The most tasks waiting to run (default 1 000); past it a new task is refused (`-32600`). */
  maxQueued?: number;
  /**
   * The most tasks one owner keeps stored, finished ones included until their ttl ends
   * (default 1 000); past it a new task is refused (`-32600`).
   */
  maxStoredPerOwner?: number;
}

/** The default limits on MCP tasks (decision 116). */
const TASK_LIMITS = {
  maxRunning: 16,
  maxRunningPerOwner: 4,
  maxQueued: 1000,
  maxStoredPerOwner: 1000,
} as const;

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
    maxRunning: checkLimit('maxRunning', tasks.maxRunning),
    maxRunningPerOwner: checkLimit('maxRunningPerOwner', tasks.maxRunningPerOwner),
    maxQueued: checkLimit('maxQueued', tasks.maxQueued),
    maxStoredPerOwner: checkLimit('maxStoredPerOwner', tasks.maxStoredPerOwner),
    storeName: store === undefined ? DEFAULT_MCP_TASKS_PATH : UNNAMED_TASK_STORE,
    records: () => {
      records ??= mcpTaskStore(store ?? sqliteStore(DEFAULT_MCP_TASKS_PATH));
      return records;
    },
  };
}

/** A task limit: a whole number ≥ 1 (≥ 0 for `maxQueued`), its default when not given. */
function checkLimit(name: keyof typeof TASK_LIMITS, value: unknown): number {
  if (value === undefined) return TASK_LIMITS[name];
  const least = name === 'maxQueued' ? 0 : 1;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least) {
    throw new RangeError(
      `mcpServer: tasks.${name}: expected a whole number of at least ${least}, received ${describeValue(value)}`,
    );
  }
  return value;
}
