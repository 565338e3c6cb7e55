/**
 * The `isolation` option of a task or tool, and its checked, resolved form.
 */
import type { ResourceLimits } from 'node:worker_threads';
import { describeValue } from '../../internal/describe-value.ts';
import { callerModuleUrl } from './defining-module.ts';

/** Memory and stack limits of an isolated task's worker (Node's `ResourceLimits`). */
export type WorkerResourceLimits = Pick<
  ResourceLimits,
  'maxOldGenerationSizeMb' | 'maxYoungGenerationSizeMb' | 'codeRangeSizeMb' | 'stackSizeMb'
>;

/** The object form of `isolation: 'worker'`. */
export interface WorkerIsolation {
  type: 'worker';
  /**
   * The URL of the module that defines the task at its top level (`import.meta.url`).
   * Read from the call stack when absent; give it when that is not the defining module
   * (the task is created by a helper in another module, or the code is bundled).
   */
  module?: string | URL;
  /** Limits of the worker's heap and stack; a worker exceeding them fails the call. */
  resourceLimits?: WorkerResourceLimits;
  /**
   * The most memory outside the V8 heap — Buffers, ArrayBuffers, typed arrays — the
   * worker may hold, in megabytes (default 512). It is read every 50 ms while a call
   * runs; past it the worker is terminated and the call fails. `resourceLimits` does not
   * cover this memory.
   */
  maxExternalMemoryMb?: number;
}

/**
 * Where a task's executor runs: in the caller's thread (the default), or — `'worker'` —
 * in a worker thread that is terminated at `timeoutMs` or on abort, so that even a
 * synchronous loop is stopped (hard cancellation). The task must be created at the top
 * level of an ES module, which the worker imports. Decision 082.
 *
 * @example
 * ```ts
 * import { tool } from 'fino:ai/tool';
 *
 * export const spin = tool({
 *   name: 'spin',
 *   timeoutMs: 100,
 *   isolation: { type: 'worker', module: import.meta.url, resourceLimits: { maxOldGenerationSizeMb: 64 } },
 *   execute: () => {
 *     for (;;) {}
 *   },
 * });
 * await spin.invoke({}); // → { content: 'Tool "spin" timed out after 100 ms', isError: true }
 * ```
 */
export type Isolation = 'worker' | WorkerIsolation;

/** An `isolation` option checked and resolved: the defining module is known. */
export interface ResolvedIsolation {
  moduleUrl: string;
  resourceLimits: WorkerResourceLimits | undefined;
  maxExternalMemoryMb: number;
}

/** The default of `maxExternalMemoryMb`. */
export const DEFAULT_MAX_EXTERNAL_MEMORY_MB = 512;

const LIMIT_KEYS = [
  'maxOldGenerationSizeMb',
  'maxYoungGenerationSizeMb',
  'codeRangeSizeMb',
  'stackSizeMb',
] as const;

/**
 * Checks `isolation` for the task `taskName` and finds its defining module. Throws a
 * `TypeError` (or `RangeError` for a limit) naming what was wrong and what was expected.
 */
export function resolveIsolation(taskName: string, isolation: unknown): ResolvedIsolation {
  const where = `Task "${taskName}": isolation`;
  if (isolation === 'worker') {
    return {
      moduleUrl: definingModule(where),
      resourceLimits: undefined,
      maxExternalMemoryMb: DEFAULT_MAX_EXTERNAL_MEMORY_MB,
    };
  }
  if (typeof isolation !== 'object' || isolation === null || Array.isArray(isolation)) {
    throw new TypeError(
      `${where}: expected 'worker' or { type: 'worker', module?, resourceLimits?, maxExternalMemoryMb? }, received ${describeValue(isolation)}`,
    );
  }
  const { type, module, resourceLimits, maxExternalMemoryMb } = isolation as Record<
    string,
    unknown
  >;
  if (type !== 'worker') {
    throw new TypeError(`${where}.type: expected 'worker', received ${describeValue(type)}`);
  }
  const unknownKeys = Object.keys(isolation).filter((key) => !OPTION_KEYS.includes(key));
  if (unknownKeys.length > 0) {
    throw new TypeError(
      `${where}: unknown option ${JSON.stringify(unknownKeys[0])}; expected type, module, resourceLimits or maxExternalMemoryMb`,
    );
  }
  return {
    moduleUrl: module === undefined ? definingModule(where) : moduleUrlOf(where, module),
    resourceLimits: resourceLimits === undefined ? undefined : checkLimits(where, resourceLimits),
    maxExternalMemoryMb:
      maxExternalMemoryMb === undefined
        ? DEFAULT_MAX_EXTERNAL_MEMORY_MB
        : checkMegabytes(`${where}.maxExternalMemoryMb`, maxExternalMemoryMb),
  };
}

const OPTION_KEYS: readonly string[] = ['type', 'module', 'resourceLimits', 'maxExternalMemoryMb'];

/** A number of megabytes above 0 and at most 2^20, else a `RangeError` naming `where`. */
function checkMegabytes(where: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 2 ** 20) {
    throw new RangeError(
      `${where}: expected a number of megabytes above 0 and at most ${2 ** 20}, received ${describeValue(value)}`,
    );
  }
  return value;
}

function definingModule(where: string): string {
  const url = callerModuleUrl();
  if (url === undefined) {
    throw new TypeError(
      `${where}: cannot tell which module defines this task (no module file on the call stack); pass isolation: { type: 'worker', module: import.meta.url }`,
    );
  }
  return url;
}

function moduleUrlOf(where: string, module: unknown): string {
  const text = module instanceof URL ? module.href : module;
  if (typeof text === 'string' && URL.canParse(text)) return new URL(text).href;
  throw new TypeError(
    `${where}.module: expected the defining module's URL (import.meta.url), received ${describeValue(text)}`,
  );
}

function checkLimits(where: string, limits: unknown): WorkerResourceLimits {
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) {
    throw new TypeError(
      `${where}.resourceLimits: expected an object, received ${describeValue(limits)}`,
    );
  }
  const checked: WorkerResourceLimits = {};
  for (const key of Object.keys(limits)) {
    if (!(LIMIT_KEYS as readonly string[]).includes(key)) {
      throw new TypeError(
        `${where}.resourceLimits: unknown limit ${JSON.stringify(key)}; expected ${LIMIT_KEYS.join(', ')}`,
      );
    }
    const value: unknown = (limits as Record<string, unknown>)[key];
    checked[key as (typeof LIMIT_KEYS)[number]] = checkMegabytes(
      `${where}.resourceLimits.${key}`,
      value,
    );
  }
  return checked;
}
