/**
 * A `fino` command built as a `Task`: its input schema gives the flags (`Task.parse()`),
 * `help()` the `--help` text, and its executor does the work and resolves to the exit
 * code. Commands import this file; `main.ts` does not, so `fino --version` loads no task.
 */
import type { Task } from '../task/index.ts';
import { type Command, type CommandIo, writeLine } from './command.ts';
import { EXIT } from './exit-codes.ts';
import { reportError } from './report-error.ts';

/** A command's task: its executor resolves to the exit code (see `EXIT`). */
export type CommandTask = Task<any, number>;

/**
 * Parses `argv` with `root` (a child's name selects that subcommand), prints the help of
 * the selected task for `--help`, else runs it; resolves to the exit code. Never throws:
 * a bad flag, a failed run or a thrown error is printed in the one error format, with
 * a hint to the selected command's `--help` for usage errors.
 *
 * @example
 * ```ts
 * import { task } from 'fino:task';
 * import { v } from 'fino:validate';
 * import { processIo } from './main.ts';
 * import { runCommandTask } from './task-command.ts';
 *
 * const hello = task({
 *   name: 'hello',
 *   inputSchema: v.object({ name: v.string() }),
 *   run: ({ name }: { name: string }) => (console.log(`Hello, ${name}`), 0),
 * });
 * process.exitCode = await runCommandTask(hello, ['--name', 'Ada'], processIo(), 'fino hello');
 * ```
 */
export async function runCommandTask(
  root: CommandTask,
  argv: readonly string[],
  io: CommandIo,
  usage: string,
): Promise<number> {
  let selected = usage;
  try {
    const parsed = root.parse(argv, { usage });
    selected = parsed.usage;
    if (parsed.help) {
      writeLine(io.stdout, parsed.task.help(parsed.usage));
      return EXIT.ok;
    }
    return await (parsed.task as CommandTask).run(parsed.input, {
      mode: parsed.mode,
      env: io.env,
      cwd: io.cwd,
    });
  } catch (error) {
    return reportError(error, io, `Run "${selected} --help" for usage.`);
  }
}

/**
 * A `Command` from a task built over the command's streams: `fino <name> …` parses and
 * runs it with {@link runCommandTask}.
 *
 * @example
 * ```ts
 * import { task } from 'fino:task';
 * import { taskCommand } from './task-command.ts';
 *
 * export const hello = taskCommand('hello', (io) =>
 *   task({ name: 'hello', run: () => (io.stdout.write('Hello\n'), 0) }),
 * );
 * ```
 */
export function taskCommand(name: string, build: (io: CommandIo) => CommandTask): Command {
  return {
    name,
    task: build,
    run: (argv, io) => runCommandTask(build(io), argv, io, `fino ${name}`),
  };
}
