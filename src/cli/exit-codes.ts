/**
 * The exit codes of every `fino` command, in one place (documented in docs/cli.md).
 */
export const EXIT = {
  /** The command did its work. */
  ok: 0,
  /** The work failed: a tool threw or reported `isError`, a port was busy, a store failed. */
  failure: 1,
  /** The command line is wrong: unknown option, missing or invalid argument, missing file. */
  usage: 2,
  /** A tool needs approval and none was given: declined, or no terminal and no `--yes`. */
  notApproved: 3,
  /** A tool suspended for an answer and there is no terminal to ask. */
  suspended: 4,
  /** Interrupted with Ctrl-C. */
  interrupted: 130,
} as const;
