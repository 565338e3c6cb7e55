/**
 * `Task.parse()`: a command line to the task it selects (a subcommand or the task
 * itself) and its validated input.
 */
import type { CompiledValidator } from '../validate/index.ts';
import { argumentOf } from './cli-spec.ts';
import { capErrorText } from './error-text.ts';
import { UsageError } from './errors.ts';
import { issueLines } from './invalid-arguments.ts';
import { type ParsedArgv, parseArgv } from './parse-argv.ts';
import type { AnyTask } from './types.ts';

/** The result of `Task.parse()`: the task the command line selected and its input. */
export interface ParsedCommand<Input = unknown> extends ParsedArgv {
  /** This task, or the child a subcommand named. */
  task: AnyTask;
  /** The command that selected `task`, for its help text (e.g. `calc add`). */
  usage: string;
  input: Input & Record<string, unknown>;
}

/** Options of `Task.parse()`. */
export interface ParseOptions {
  /** The command that precedes the arguments, for the help text (default the task's name). */
  usage?: string;
  /** Input to start from (e.g. from `--input JSON`); options override its properties. */
  input?: Record<string, unknown>;
}

/**
 * Parses `argv` for `task`: a first argument naming a child parses that child's
 * command line; `validator` (the task's, when it validates synchronously) checks the
 * input, its issues named by command-line argument. Throws a `UsageError`.
 */
export function parseCommand(
  task: AnyTask,
  argv: readonly string[],
  options: ParseOptions,
  validator: CompiledValidator<unknown> | undefined,
): ParsedCommand {
  const usage = options.usage ?? task.name;
  const first = argv[0];
  const child = first !== undefined && !first.startsWith('-') ? task.child(first) : undefined;
  if (child) return child.parse(argv.slice(1), { ...options, usage: `${usage} ${child.name}` });
  const hint = `Run "${usage} --help" for usage.`;
  const takesArguments = task.cli.positionals?.length || task.cli.passthrough !== undefined;
  if (
    first !== undefined &&
    !first.startsWith('-') &&
    task.children.length > 0 &&
    !takesArguments
  ) {
    const names = task.children.map((c) => c.name).join(', ');
    throw new UsageError(`unknown command "${first}"; expected one of ${names}`, hint);
  }
  let parsed: ParsedArgv;
  try {
    parsed = parseArgv(argv, task.cli, options.input, task.supports('json'));
  } catch (error) {
    throw error instanceof UsageError ? new UsageError(error.message, hint) : error;
  }
  if (parsed.mode === 'json' && !task.supports('json')) {
    throw new UsageError(`--json: "${task.name}" supports only "${task.outputMode}" output`, hint);
  }
  if (!parsed.help && validator) {
    const result = validator.safeParse(parsed.input);
    if (!result.success) {
      const lines = issueLines(result.issues, (issue) => {
        const key = /^[A-Za-z_$][\w$]*/.exec(issue.path)?.[0];
        return `${key ? argumentOf(task.cli, key) : 'input'}: ${issue.message}`;
      });
      throw new UsageError(capErrorText(lines.join('\n')), hint);
    }
    parsed.input = result.value as Record<string, unknown>;
  }
  return { ...parsed, task, usage, input: parsed.input };
}
