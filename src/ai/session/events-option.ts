/** The session option `events`: whether runs record their events, and how much a run's log holds. */
import { describeValue } from '../../internal/describe-value.ts';
import { unknownKeyMessage } from '../../internal/known-keys.ts';
import { SessionError } from './errors.ts';
import type { EventLimits } from './run-event-types.ts';

/** The most events one run's log holds by default (decision 251). */
export const DEFAULT_MAX_EVENTS = 10_000;
/** The most bytes of event JSON one run's log holds by default: 4 MiB (decision 251). */
export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/** What `session({ events })` accepts. */
export type EventsOption = boolean | { maxEvents?: number; maxBytes?: number };

/** The limits of `option`, or `undefined` when runs record no events (the default). */
export function eventLimits(option: EventsOption | undefined): EventLimits | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return { maxEvents: DEFAULT_MAX_EVENTS, maxBytes: DEFAULT_MAX_BYTES };
  if (option === null || typeof option !== 'object' || Array.isArray(option)) {
    throw invalid(
      `expected true, false or { maxEvents?, maxBytes? }, received ${describeValue(option)}`,
    );
  }
  const unknown = unknownKeyMessage('session: events', option, ['maxEvents', 'maxBytes']);
  if (unknown) throw new SessionError('INVALID_ARGUMENT', unknown);
  return {
    maxEvents: whole(option.maxEvents, 'maxEvents', DEFAULT_MAX_EVENTS),
    maxBytes: whole(option.maxBytes, 'maxBytes', DEFAULT_MAX_BYTES),
  };
}

function whole(value: unknown, key: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalid(`${key}: expected a whole number ≥ 1, received ${describeValue(value)}`);
  }
  return value;
}

const invalid = (message: string) =>
  new SessionError('INVALID_ARGUMENT', `session: events: ${message}`);
