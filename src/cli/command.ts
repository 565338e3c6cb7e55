/**
 * The shape of a `fino` subcommand and the streams it talks through.
 */

/** The process streams and directory a command uses; tests pass their own. */
export interface CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** The directory relative paths are resolved against. */
  cwd: string;
  env: Record<string, string | undefined>;
}

/**
 * A `fino` subcommand: `fino <name> …` calls `run` with the arguments after the name.
 * Listed in `src/cli/commands/index.ts`.
 */
export interface Command {
  name: string;
  /** One line for `fino --help`. */
  summary: string;
  /** The full `fino <name> --help` text. */
  usage: string;
  /**
   * Runs the command; resolves to the exit code: 0 success, 1 the work failed,
   * 2 a usage or validation error.
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
