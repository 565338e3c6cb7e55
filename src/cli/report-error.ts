/**
 * Prints a command's failure and picks its exit code.
 */
import { UsageError } from '../task/index.ts';
import { type CommandIo, writeLine } from './command.ts';

/**
 * Usage and validation errors (named `UsageError` or `ValidationError`) print their
 * message and help hint and exit 2; anything else prints its message and exits 1.
 *
 * @example
 * ```ts
 * import { processIo } from './main.ts';
 * import { reportError } from './report-error.ts';
 *
 * process.exitCode = reportError(new Error('disk full'), processIo()); // prints "error: disk full", → 1
 * ```
 */
export function reportError(error: unknown, io: CommandIo): number {
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError || name === 'ValidationError') {
    writeLine(io.stderr, `error: ${message}`);
    const hint = error instanceof UsageError ? error.hint : '';
    if (hint) writeLine(io.stderr, hint);
    return 2;
  }
  writeLine(io.stderr, `error: ${message}`);
  return 1;
}
