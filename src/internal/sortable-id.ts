/**
 * Ids that sort in the order they were made in this process: 12 hex digits of the
 * millisecond clock, 6 of a sequence within that millisecond, then random hex. Stores list
 * rows by `(created_at, id)`, and two rows made in one millisecond would otherwise come
 * back in random order ("oldest first" broken; seen in CI with 53 MCP tasks). The clock
 * part never goes backwards, even when the system clock does.
 */
import { randomBytes } from 'node:crypto';

const SEQUENCE_LIMIT = 0xffffff;
let lastMs = 0;
let sequence = 0;

/** `prefix` followed by 32 hex digits: time, sequence, then 56 random bits. */
export function sortableId(prefix: string): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (sequence < SEQUENCE_LIMIT) {
    sequence++;
  } else {
    lastMs++;
    sequence = 0;
  }
  const time = lastMs.toString(16).padStart(12, '0');
  const seq = sequence.toString(16).padStart(6, '0');
  return `${prefix}${time}${seq}${randomBytes(7).toString('hex')}`;
}
