/**
 * The arguments the `fino workflows` subcommands share: a run id, who acts and why (the
 * audit trail), and any other name or id the workflow store keeps. Each is text without
 * control characters or lone surrogates (decision 253): refused with exit 2 before the
 * store is opened, where a NUL would fail inside PostgreSQL and an escape code written to
 * the audit trail would be replayed on the terminal of whoever runs `show` later.
 */
import { v } from '../../validate/index.ts';

/** Text without control characters or lone surrogates (the rule of `src/workflow/printable.ts`). */
const PRINTABLE = /^[^\p{Cc}\p{Cs}]*$/u;

/** `v.string()` of at most `max` characters, refused when not printable. */
const printable = (max: number) =>
  v
    .string()
    .min(1)
    .max(max)
    .refine(
      (text) => PRINTABLE.test(text),
      'expected text without control characters or lone surrogates',
    );

/** A name or an id the store keeps: 1 to 200 characters of printable text. */
export const nameArgument = (description: string) => printable(200).describe(description);

/** The run id positional. */
export const runIdArgument = nameArgument('the run id (as "list" prints it)');
/** `--by`, for the audit trail. */
export const byFlag = nameArgument('who acts, for the audit trail').optional();
/** `--note`, for the audit trail: printable text, at most 2 000 characters. */
export const noteFlag = printable(2_000).optional().describe('a note for the audit trail');
