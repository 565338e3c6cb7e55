/**
 * Validation issues, the error that carries them and the one-line-per-issue formatter.
 *
 * A path is `''` for the root, dotted for object keys and `[i]` for array indexes
 * (`items[1].name`). A key that is not an identifier (`[A-Za-z_$][A-Za-z0-9_$]*`) is
 * written as a bracketed JSON string, so every path reads back unambiguously:
 * `headers["content-type"]`, `["a.b"][0]`. See docs/decisions/010.
 */

/** One reason why a value failed validation. */
export interface Issue {
  /** Where in the value: `''` for the root, `a.b`, `items[1].name`, `headers["content-type"]`. */
  path: string;
  /** What was expected and what was received, written for a model that must repair its call. */
  message: string;
  /** The JSON Schema keyword that failed (`type`, `required`, …), or `refine` for a refinement. */
  keyword: string;
  /** The offending value, when there is one (absent for a missing property). */
  value?: unknown;
}

/**
 * Renders issues one per line as `path: message`, with `<root>` for the root path.
 *
 * @example
 * ```ts
 * import { formatIssues } from 'fino:validate';
 *
 * formatIssues([{ path: '', message: 'expected object, received null', keyword: 'type' }]);
 * // '<root>: expected object, received null'
 * ```
 */
export function formatIssues(issues: readonly Issue[]): string {
  return issues
    .map((issue) => `${issue.path === '' ? '<root>' : issue.path}: ${issue.message}`)
    .join('\n');
}

/**
 * The error thrown by `parse` when a value does not match its schema. Its message is
 * {@link formatIssues} of its issues, so it reads well in a tool result or a log.
 *
 * @example
 * ```ts
 * import { ValidationError, parse } from 'fino:validate';
 *
 * try {
 *   parse({ type: 'number' }, 'not-a-number');
 * } catch (error) {
 *   if (error instanceof ValidationError) console.log(error.issues[0].message);
 *   // 'expected number, received string "not-a-number"'
 * }
 * ```
 */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  readonly issues: readonly Issue[];

  constructor(issues: readonly Issue[]) {
    super(formatIssues(issues));
    this.issues = issues;
  }
}
