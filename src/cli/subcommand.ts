/**
 * The plumbing the `fino sessions` and `fino workflows` subcommands share: each is a
 * child task with its own schema that prints text, or JSON with `--json`, under a
 * parent command that names them.
 */
import { type SchemaInput, type TaskRunContext, task, UsageError } from '../task/index.ts';
import { type Command, type CommandIo, writeLine } from './command.ts';
import { escapeText, safeJson } from './escape-text.ts';
import { EXIT } from './exit-codes.ts';
import { type CommandTask, taskCommand } from './task-command.ts';

/** Where a subcommand reads and writes: its streams, and whether `--json` was given. */
export interface Output {
  io: CommandIo;
  json: boolean;
}

/**
 * Prints `value` as JSON with `--json`, else `text()` one line each. Stored text (model
 * output, errors, notes, arguments) is escaped: one field per line, with no control
 * sequence that could redraw the terminal or disguise another run.
 *
 * @example
 * ```ts
 * import { PassThrough } from 'node:stream';
 * import { print } from './subcommand.ts';
 *
 * const stdout = new PassThrough();
 * const io = { stdin: new PassThrough(), stdout, stderr: new PassThrough(), cwd: '.', env: {} };
 * print({ io, json: false }, { ok: true }, () => ['ok']); // writes "ok"
 * ```
 */
export function print(out: Output, value: unknown, text: () => string[]): number {
  writeLine(
    out.io.stdout,
    out.json
      ? safeJson(value, 2)
      : text()
          .map((line) => escapeText(line))
          .join('\n'),
  );
  return EXIT.ok;
}

/** A subcommand over `io`: a task that prints JSON with `--json`. */
export function subcommand<Input>(
  io: CommandIo,
  options: {
    name: string;
    description: string;
    inputSchema: SchemaInput<Input>;
    positionals: string[];
    run(input: Input, out: Output): Promise<number>;
  },
): CommandTask {
  return task<Input, number>({
    name: options.name,
    description: options.description,
    inputSchema: options.inputSchema,
    outputMode: 'both',
    cli: { positionals: options.positionals },
    run: (input, ctx: TaskRunContext) =>
      options.run(input, { io, json: ctx.writer.mode === 'json' }),
  });
}

/**
 * A command made of subcommands: `fino <name> <subcommand> …` runs one of
 * `subcommands(io)`; `fino <name>` alone is a usage error that names them.
 *
 * @example
 * ```ts
 * import { v } from 'fino:validate';
 * import { parentCommand, print, subcommand } from './subcommand.ts';
 *
 * export const greet = parentCommand('greet', 'Greets.', (io) => [
 *   subcommand(io, {
 *     name: 'hello',
 *     description: 'Says hello',
 *     inputSchema: v.object({}),
 *     positionals: [],
 *     run: async (_given, out) => print(out, 'hello', () => ['hello']),
 *   }),
 * ]);
 * ```
 */
export function parentCommand(
  name: string,
  description: string,
  subcommands: (io: CommandIo) => CommandTask[],
): Command {
  return taskCommand(name, (io) => {
    const children = subcommands(io);
    return task({
      name,
      description,
      children,
      run: () => {
        throw new UsageError(
          `missing subcommand; expected one of ${children.map((c) => c.name).join(', ')}`,
        );
      },
    });
  });
}
