/**
 * The text of an `isError` result for arguments that failed validation: small whatever
 * the arguments were. Decision 059.
 */
import { formatIssues, type Issue } from '../validate/index.ts';
import { capErrorText, excerpt } from './error-text.ts';

/** How many issues the text lists; the rest are counted (`… and 99980 more issues`). */
const MAX_ISSUES_SHOWN = 20;

/** The longest line for one issue; a longer path or message is cut with `…`. */
const MAX_ISSUE_CHARS = 300;

/**
 * `Invalid arguments for "<task>":` then one `path: message` line for each of the first
 * {@link MAX_ISSUES_SHOWN} issues, then how many more there were, within the error text limit.
 */
export function invalidArgumentsText(taskName: string, issues: readonly Issue[]): string {
  const lines = issueLines(issues, (issue) => formatIssues([issue]));
  return capErrorText(`Invalid arguments for "${taskName}":\n${lines.join('\n')}`);
}

/**
 * One line per issue for the first {@link MAX_ISSUES_SHOWN} issues, each cut to a readable
 * length, then `… and N more issues` when there were more.
 */
export function issueLines(issues: readonly Issue[], line: (issue: Issue) => string): string[] {
  const lines = issues
    .slice(0, MAX_ISSUES_SHOWN)
    .map((issue) => excerpt(line(issue), MAX_ISSUE_CHARS));
  const more = issues.length - lines.length;
  if (more > 0) lines.push(`… and ${more} more issue${more === 1 ? '' : 's'}`);
  return lines;
}
