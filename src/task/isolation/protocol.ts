/**
 * The messages between an isolated task's caller and its worker. A worker runs one call
 * at a time, so messages carry no call id.
 */
import type { ModelMessage } from '../content.ts';
import type { OutputMode, Progress } from '../types.ts';

/** How often a running worker's memory outside its heap is read (by the caller and by the worker). */
export const MEMORY_WATCH_MS = 50;

/** What the worker's bootstrap receives as `workerData`. */
export interface WorkerData {
  /** The worker's entry module (`worker-main`). */
  entry: string;
  /** The module that defines the tasks this worker runs. */
  moduleUrl: string;
  /** tsx's `register` module, when the entry or the defining module is TypeScript. */
  typeScript: string | undefined;
  /** fino's resolve hook for the `fino:` specifiers. */
  finoHooks: string;
}

/** The plain-data part of a call's context; `signal`, `suspend` and `writer` are rebuilt. */
export interface CallData {
  toolCallId: string;
  step: number;
  runId: string;
  messages: ModelMessage[];
  resumeValue: unknown;
  idempotencyKey: string | undefined;
  mode: OutputMode;
  env: Record<string, string | undefined> | undefined;
  cwd: string | undefined;
}

/** Caller → worker. */
export type ToWorker =
  | { type: 'call'; name: string; input: unknown; context: CallData; maxExternalMemory: number }
  | { type: 'abort'; name: string; message: string };

/** Worker → caller. */
export type ToCaller =
  | { type: 'started' }
  | { type: 'write'; text: string }
  | { type: 'writeJson'; value: unknown }
  | { type: 'done'; value: unknown }
  /** `discardWorker`: the worker cannot run further calls (its module import is stuck). */
  | { type: 'error'; name: string; message: string; discardWorker?: boolean }
  /** The worker holds `bytes` outside its heap, more than the call's limit. */
  | { type: 'memory'; bytes: number }
  | { type: 'suspend'; reason: string; payload: unknown }
  | { type: 'progress'; update: Progress }
  | { type: 'invalid'; reason: string };
