/**
 * Prints a failure in the one format every `fino` entry point uses, and picks its exit
 * code:
 *
 *     fino: <message>
 *     <hint>
 *
 * with the stack trace after them when verbose (`--verbose` or `FINO_DEBUG=1`).
 */
import { type CommandIo, writeLine } from './command.ts';
import { escapeText } from './escape-text.ts';
import { EXIT } from './exit-codes.ts';

/** Error names that mean the command line was wrong (exit 2). */
const USAGE_ERRORS = new Set(['UsageError', 'ValidationError']);

const FAILURE_HINT = 'Run again with --verbose (or FINO_DEBUG=1) for the stack trace.';

/** Whether stack traces are wanted: `io.verbose`, or `FINO_DEBUG` set to anything but 0. */
export const isVerbose = (io: Pick<CommandIo, 'verbose' | 'env'>): boolean =>
  io.verbose === true ||
  (io.env.FINO_DEBUG !== undefined && !/^(0|false|)$/i.test(io.env.FINO_DEBUG));

/**
 * Prints `fino: <message>` and a hint line on stderr and returns the exit code.
 *
 * @example
 * ```ts
 * import { processIo } from './main.ts';
 * import { reportProblem } from './report-error.ts';
 *
 * process.exitCode = reportProblem(processIo(), 'missing <file>', 'Run "fino tools --help" for usage.', 2);
 * ```
 */
export function reportProblem(
  io: Pick<CommandIo, 'stderr'>,
  message: string,
  hint: string,
  code: number,
): number {
  writeLine(io.stderr, `fino: ${escapeText(message, { multiline: true })}`);
  if (hint) writeLine(io.stderr, escapeText(hint, { multiline: true }));
  return code;
}

/**
 * Usage and validation errors (named `UsageError` or `ValidationError`) print their
 * message and help hint (`usageHint` when they carry none) and return 2; a busy port
 * (`EADDRINUSE`) says which and how to pick another; anything else prints its message
 * and a hint to rerun with `--verbose`, and returns 1. Verbose adds the stack trace.
 *
 * @example
 * ```ts
 * import { processIo } from './main.ts';
 * import { reportError } from './report-error.ts';
 *
 * process.exitCode = reportError(new Error('disk full'), processIo()); // prints "fino: disk full", → 1
 * ```
 */
export function reportError(
  error: unknown,
  io: Pick<CommandIo, 'stderr' | 'verbose' | 'env'>,
  usageHint = '',
): number {
  const e = error as {
    name?: unknown;
    message?: unknown;
    hint?: unknown;
    stack?: unknown;
    code?: unknown;
    address?: unknown;
    port?: unknown;
  } | null;
  const busy = e?.code === 'EADDRINUSE';
  const message = busy
    ? `port ${e.port} on ${e.address} is already in use`
    : typeof e?.message === 'string' && e.message !== ''
      ? e.message
      : String(error);
  const isUsage = USAGE_ERRORS.has(e?.name as string);
  const hint = isUsage
    ? typeof e?.hint === 'string' && e.hint !== ''
      ? e.hint
      : usageHint
    : busy
      ? 'Stop what is listening there, or choose another port (0 picks a free one).'
      : isVerbose(io)
        ? ''
        : FAILURE_HINT;
  const code = reportProblem(io, message, hint, isUsage ? EXIT.usage : EXIT.failure);
  if (isVerbose(io) && typeof e?.stack === 'string') {
    writeLine(io.stderr, escapeText(e.stack, { multiline: true }));
  }
  return code;
}
