import { AgentError } from '../agent-error.ts';
import { describe } from '../describe.ts';

/** Checks `state.context` as read from storage: absent, or `{ summary?: { text, through } }` within the messages. */
export function checkContextState(value: unknown, messages: number): void {
  if (value === undefined) return;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AgentError(
      'INVALID_STATE',
      `state.context: expected an object or absent, received ${describe(value)}`,
    );
  }
  const summary = (value as { summary?: unknown }).summary;
  if (summary === undefined) return;
  const s = summary as { text?: unknown; through?: unknown } | null;
  if (
    s === null ||
    typeof s !== 'object' ||
    typeof s.text !== 'string' ||
    !Number.isInteger(s.through) ||
    (s.through as number) < 0 ||
    (s.through as number) > messages
  ) {
    throw new AgentError(
      'INVALID_STATE',
      `state.context.summary: expected { text: string, through: an integer from 0 to ${messages} (the number of messages) }, received ${describe(summary)}`,
    );
  }
}
