/**
 * Which era an MCP revision belongs to: 2026-07-28 and later carry the log level on each
 * request and follow resources on `subscriptions/listen` (decisions 210, 211); the 2025
 * revisions have `logging/setLevel` and `resources/subscribe`.
 */

/** The first revision of the 2026 era. */
const FIRST_MODERN_REVISION = '2026-07-28';

/**
 * Whether `version` (a date, `YYYY-MM-DD`) is a 2026-era revision.
 *
 * @example
 * ```ts
 * import { isModernRevision } from './revisions.ts';
 *
 * isModernRevision('2026-07-28'); // true
 * isModernRevision('2025-11-25'); // false
 * isModernRevision(undefined); // false: not connected
 * ```
 */
export function isModernRevision(version: string | undefined): boolean {
  return version !== undefined && version >= FIRST_MODERN_REVISION;
}
