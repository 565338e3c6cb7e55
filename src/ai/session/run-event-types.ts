/**
 * A run's recorded events as callers and stores see them (`session({ events })`,
 * `Session.events`): the agent's events with the markers the session adds, each with its
 * place (`seq`) in the run's log.
 */
import type { AgentEvent, PendingCall } from '../agent/index.ts';
import type { Usage } from '../model/index.ts';

/**
 * Why a drive of a run after its first began: a decision continued it (`approve`,
 * `reject`, `resume`), a worker continued it when no worker held it (`continue`,
 * `drain`), or a worker took it over from one whose lease expired (`takeover`: the
 * events since the run's last checkpoint may come again, as the run redoes that part).
 */
export type ResumeReason = 'decision' | 'continue' | 'takeover';

/**
 * What the session itself writes into a run's log: where a drive after the first
 * begins, and where the log stopped taking events because it was full (decision 251).
 */
export type RunMarker =
  | { type: 'run-resumed'; reason: ResumeReason }
  | { type: 'events-truncated' };

/**
 * How a drive of the run ended, as its log keeps it: the result without its `state`,
 * `messages` and `steps` (the run's stored state has them: `get(runId)`; the
 * `step-finish` events have the steps), so that the log stays small (decision 250).
 */
export type RunFinish =
  | { status: 'done'; agent: string; text: string; output?: unknown; usage: Usage }
  | { status: 'suspended'; agent: string; pending: PendingCall[] };

/** An agent event as a run's log keeps it: `finish` with a {@link RunFinish}. */
export type RecordedAgentEvent =
  | Exclude<AgentEvent, { type: 'finish' }>
  | { type: 'finish'; result: RunFinish };

/** One event of a run's log: its place (from 1, contiguous), when it happened (ISO 8601), and what. */
export interface RunEvent {
  runId: string;
  seq: number;
  at: string;
  event: RecordedAgentEvent | RunMarker;
}

/** One event as a store appends it: when (epoch milliseconds), its `type`, and its JSON text. */
export interface NewRunEvent {
  at: number;
  type: string;
  json: string;
}

/** How much one run's log holds (decision 251); see `SessionOptions.events`. */
export interface EventLimits {
  /** The most events, the `events-truncated` marker included (`finish` events go in past it). */
  maxEvents: number;
  /** The most bytes of event JSON (UTF-8), the same way. */
  maxBytes: number;
}
