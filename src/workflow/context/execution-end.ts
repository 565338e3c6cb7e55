/**
 * What one execution of a run (see `replay-engine.ts`) needs besides the run and its
 * history, how it ends, and what a parked run waits on once only waits remain.
 */
import type { OtelSpan } from '../../ai/agent/index.ts';
import type { WorkflowError } from '../errors.ts';
import type { WaitingOn, WorkflowStore } from '../types.ts';
import type { PendingDecision } from './context-types.ts';

/** How one execution of a run ends. */
export type ExecutionEnd =
  | { kind: 'returned'; value: unknown }
  | { kind: 'threw'; error: unknown }
  | { kind: 'park'; waiting: WaitingOn }
  | { kind: 'fatal'; error: WorkflowError }
  | { kind: 'lost' }
  | { kind: 'stopped' }
  /** The database failed (`STORE_UNAVAILABLE`): the run is left to be claimed again, never ended. */
  | { kind: 'unavailable'; error: WorkflowError };

/** What an execution needs besides the run and its history. */
export interface ExecutionDeps {
  store: WorkflowStore;
  owner: string;
  leaseMs: number;
  maxValueBytes: number;
  /** The most checkpoints the run's history may hold. */
  maxHistoryEntries: number;
  /** Declared signal names, when the workflow declares them. */
  signals?: ReadonlySet<string>;
  /** A replay of an exported history (`replayHistory`): what lies outside the history, the streams out, is not written. */
  replay?: true;
  /** Hands out each new pending decision with its token, once. */
  onPending?(pending: PendingDecision): void;
  /** Starts a span for a live operation, under the execution's span; absent when tracing is off. */
  span?(name: string, attributes: Record<string, string | number | boolean>): OtelSpan;
}

/** What a wait that cannot complete now waits on. */
export interface Blocked {
  timerDueAt?: number;
  signal?: string;
  decisions?: string[];
  child?: string;
  /** A child waited for after this run's cancellation (decision 232). */
  afterCancel?: true;
}

/** What a run parked on `waits` waits on: every signal, decision and child, and the earliest timer. */
export function waitingOn(waits: readonly Blocked[]): WaitingOn {
  const timers = waits.flatMap((w) => (w.timerDueAt === undefined ? [] : [w.timerDueAt]));
  const waiting: WaitingOn = {
    signals: [...new Set(waits.flatMap((w) => (w.signal ? [w.signal] : [])))],
    decisions: waits.flatMap((w) => w.decisions ?? []),
    children: waits.flatMap((w) => (w.child ? [w.child] : [])),
  };
  if (timers.length > 0) waiting.timerDueAt = Math.min(...timers);
  if (waits.some((w) => w.afterCancel)) waiting.afterCancel = true;
  return waiting;
}
