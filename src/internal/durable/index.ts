/**
 * The durable-decisions kernel: what fino's two durable stores (the session store of
 * `ai/session`, the workflow store of `workflow`) keep alike, written once. Leases
 * (claim, renew, expire, fence a late writer: `leases.ts`), single-use decision tokens
 * (made, hashed, stored only as hashes, found by token or by run and id: `tokens.ts`),
 * the rule of which decision fits which call (`decision-fit.ts`, re-exported by
 * `fino:ai/agent` as `decisionMismatch`), the audit trail and its `ALREADY_DECIDED`
 * message (`audit.ts`), lazy migrations (`lazy-schema.ts`) and the shared part of the stores'
 * constructors (`store-constructors.ts`). Each store keeps its own tables, rows and
 * error class; the SQL is written over `src/internal/sql`'s driver.
 *
 * Private to the package. It imports only other `src/internal/` code.
 */
export {
  type AuditLine,
  type AuditRow,
  type AuditSubject,
  alreadyDecidedMessage,
  appendAudit,
  decodeAuditRow,
  readAudit,
} from './audit.ts';
export {
  type DecidedCall,
  type DecisionAction,
  type DecisionShape,
  decisionAction,
  decisionMismatch,
  fittingActions,
  isDecision,
} from './decision-fit.ts';
export { lazySchema } from './lazy-schema.ts';
export {
  andNotIn,
  claimSkipping,
  HELD_BY,
  leaseExpired,
  leaseExpiry,
  oldestUnlocked,
  placeholders,
  takeLeaseSet,
  writeIfHeld,
} from './leases.ts';
export {
  memoryStoreDriver,
  type PostgresOptions,
  postgresArguments,
  postgresStoreDriver,
  type SqliteOptions,
  sqliteArguments,
  sqliteStoreDriver,
} from './store-constructors.ts';
export { findPendingRow, hashToken, isToken, newToken } from './tokens.ts';
