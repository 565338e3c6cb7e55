/**
 * The one list of a workflow run's statuses: the stores check what they read against it,
 * and the command line's and callers' status filters offer it.
 */
import type { WorkflowStatus } from './types.ts';

/**
 * Every status a workflow run can have, for validating a filter or building a menu.
 *
 * @example
 * ```ts
 * import { WORKFLOW_STATUSES } from 'fino:workflow';
 *
 * console.log(WORKFLOW_STATUSES.includes('continued')); // true
 * ```
 */
export const WORKFLOW_STATUSES = [
  'running',
  'waiting',
  'done',
  'error',
  'cancelled',
  'continued',
] as const satisfies readonly WorkflowStatus[];

/** A status left out of the list above fails to compile here. */
type Missing = Exclude<WorkflowStatus, (typeof WORKFLOW_STATUSES)[number]>;
const everyStatusListed: [Missing] extends [never] ? true : Missing = true;
void everyStatusListed;
