/**
 * The shape of a `fino` subcommand and the streams it talks through.
 */
import type { CommandTask } from './task-command.ts';

/** The process streams and directory a command uses; tests pass their own. */
export interface CommandIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** The directory relative paths are resolved against. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** Print stack traces with errors (`--verbose` or `FINO_DEBUG=1`). */
  verbose?: boolean;
  /**
   * Imports a user's module by URL; `import()` when absent. `bin/fino.js` passes one
   * that first activates the `fino:` specifiers, and TypeScript loading for `.ts` files.
   */
  importModule?: (url: string) => Promise<Record<string, unknown>>;
}

/**
 * A `fino` subcommand: `fino <name> …` calls `run` with the arguments after the name.
 * Built as a task (`taskCommand` in `task-command.ts`): its input schema gives the flags,
 * its `help()` the `--help` text. Listed, with its one-line summary, in
 * `src/cli/commands/index.ts`, which loads it only when it runs.
 */
export interface Command {
  name: string;
  /**
   * The command as a task over `io`: `parse()` reads its flags, `help()` prints its
   * usage, `run()` resolves to the exit code. Subcommands are its children.
   */
  task(io: CommandIo): CommandTask;
  /**
   * Parses `argv` and runs the command; resolves to the exit code (see `EXIT` in
   * `exit-codes.ts`). Never throws: errors are printed in the one format.
   */
  run(argv: string[], io: CommandIo): Promise<number>;
}

/**
 * Writes one line to a stream (adding the newline when missing).
 *
 * @example
 * ```ts
 * import { writeLine } from './command.ts';
 *
 * writeLine(process.stdout, 'done');
 * ```
 */
export const writeLine = (stream: NodeJS.WritableStream, text: string): void => {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
};

/**
 * Whether a human can be asked: stdin and stderr are both terminals.
 *
 * @example
 * ```ts
 * import { isInteractive } from './command.ts';
 * import { processIo } from './main.ts';
 *
 * isInteractive(processIo()); // → true in a terminal, false in CI or a pipe
 * ```
 */
export const isInteractive = (io: CommandIo): boolean =>
  io.stdin.isTTY === true && io.stderr.isTTY === true;
