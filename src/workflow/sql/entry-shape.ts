/**
 * The shape of a history entry's stored body, checked on every read so that a row
 * changed behind the store's back is reported as `CORRUPT_RUN` (decision 180) rather
 * than replayed as something it never was.
 */
import type { EntryKind } from '../types.ts';

const KINDS: ReadonlySet<EntryKind> = new Set<EntryKind>([
  'step',
  'call',
  'sleep',
  'signal',
  'now',
  'random',
  'uuid',
  'version',
  'decision',
  'agent',
  'child',
  'emit',
  'update',
]);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What each optional field must be, when present. */
const FIELD_TYPES: Record<string, 'string' | 'number' | 'boolean'> = {
  value: 'string',
  dueAt: 'number',
  name: 'string',
  attempts: 'number',
  timedOut: 'boolean',
  endedAt: 'number',
  args: 'string',
};

/** Why `body` is not a stored history entry, or `undefined` when it is one. */
export function entryProblem(body: unknown): string | undefined {
  if (!isPlainObject(body))
    return `its body is ${body === null ? 'null' : typeof body}, not an object`;
  if (!KINDS.has(body.kind as EntryKind))
    return `its kind ${JSON.stringify(body.kind)} is not one fino records`;
  if (body.state !== 'done' && body.state !== 'waiting') {
    return `its state ${JSON.stringify(body.state)} is neither "done" nor "waiting"`;
  }
  if (typeof body.startedAt !== 'number') return 'its startedAt is not a number';
  for (const [field, type] of Object.entries(FIELD_TYPES)) {
    if (body[field] !== undefined && typeof body[field] !== type)
      return `its ${field} is not a ${type}`;
  }
  if (body.blockedOn !== undefined && !isStringArray(body.blockedOn))
    return 'its blockedOn is not an array of strings';
  const error = body.error;
  if (error === undefined) return undefined;
  if (
    !isPlainObject(error) ||
    typeof error.name !== 'string' ||
    typeof error.message !== 'string' ||
    (error.code !== undefined && typeof error.code !== 'string')
  ) {
    return `its error ${excerpt(error)} is not { name, message, code? } of strings`;
  }
  return undefined;
}

const isStringArray = (value: unknown): boolean =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** A short JSON excerpt of a stored value, for a message. */
const excerpt = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};
