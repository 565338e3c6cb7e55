/**
 * The workflow store over SQL (SQLite and PostgreSQL through `src/internal/sql`): its
 * tables and migrations (`migrations.ts`), its rows (`rows.ts`), and the store itself
 * (`store.ts`) in named parts — the runs as the lifecycle API reads and changes them
 * (`run-queries.ts`), due work and claiming it (`run-claims.ts`), the writes
 * of workers under their leases (`run-leases.ts`), the decision code
 * (`run-decisions.ts`), a cancellation reaching a run's children (`cancel-children.ts`),
 * retry and fork (`run-repairs.ts`), what they share (`store-context.ts`). Leases, tokens, the rule of
 * which decision fits which call, the audit trail and lazy migrations are the durable
 * kernel's (`src/internal/durable/`).
 *
 * It imports `src/internal/`, `ai/agent` (types only) and the workflow module's errors
 * and record types; the rest of `workflow` reaches it through this file.
 */
export { entryProblem } from './entry-shape.ts';
export { STATUSES } from './rows.ts';
export { sqlWorkflowStore } from './store.ts';
