/**
 * `fino run <file> [tool] [--flag value …] [--input JSON | -]`.
 */
import { type AnyTask, UsageError, type Writer } from '../../task/index.ts';
import { type Command, type CommandIo, writeLine } from '../command.ts';
import { loadTasks, selectTask } from '../load-module.ts';
import { readStream } from '../read-stream.ts';
import { renderOutput } from '../render-output.ts';
import { reportError } from '../report-error.ts';

const usage = `Usage: fino run <file> [tool] [--flag value …] [--input JSON | -] [--json]

Runs a tool or task exported by <file> (JavaScript or TypeScript): its default export,
or the named export called [tool] (optional when the module exports only one).
Options come from the tool's input schema; "fino run <file> [tool] --help" lists them.

  --input JSON   the whole input as JSON ("-" reads it from stdin); flags override it
  --json         print the output as JSON (tasks that support JSON output)

Exit codes: 0 success, 1 the tool reported isError or threw, 2 usage or validation error,
130 interrupted (Ctrl-C aborts the tool's signal; a second Ctrl-C exits at once).`;

/** Removes `--input X` / `--input=X` from `argv`; returns the rest and the raw value. */
function takeInput(argv: string[]): { rest: string[]; raw: string | undefined } {
  const rest: string[] = [];
  let raw: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith('--input=')) raw = arg.slice('--input='.length);
    else if (arg === '--input') {
      raw = argv[++i];
      if (raw === undefined)
        throw new UsageError('--input is missing its value: expected JSON or -');
    } else rest.push(arg);
  }
  return { rest, raw };
}

async function parseInput(
  raw: string | undefined,
  io: CommandIo,
): Promise<Record<string, unknown>> {
  if (raw === undefined) return {};
  const text = raw === '-' ? await readStream(io.stdin) : raw;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input expects JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`--input expects a JSON object, got ${text.trim().slice(0, 40)}`);
  }
  return value as Record<string, unknown>;
}

const writerFor = (mode: 'text' | 'json', io: CommandIo): Writer =>
  mode === 'text'
    ? { mode, writeText: (text) => io.stdout.write(text) }
    : { mode, writeJson: (value) => writeLine(io.stdout, JSON.stringify(value)) };

/** `fino run <file> --help` for a module of several tools: lists them. */
function moduleHelp(file: string, tasks: readonly AnyTask[]): string {
  const width = Math.max(...tasks.map((t) => t.name.length));
  return [
    `Usage: fino run ${file} <tool> [options]`,
    '',
    'Tools:',
    ...tasks.map((t) => `  ${t.name.padEnd(width)}  ${t.description}`.trimEnd()),
    '',
    `Run "fino run ${file} <tool> --help" for a tool's options.`,
  ].join('\n');
}

async function main(argv: string[], io: CommandIo): Promise<number> {
  const [file, ...afterFile] = argv;
  if (file === undefined || file === '--help' || file === '-h') {
    writeLine(file === undefined ? io.stderr : io.stdout, usage);
    return file === undefined ? 2 : 0;
  }
  const tasks = await loadTasks(file, io.cwd);
  const first = afterFile[0];
  const named = first !== undefined && tasks.some((t) => t.name === first);
  if (!named && tasks.length > 1 && (first === '--help' || first === '-h')) {
    writeLine(io.stdout, moduleHelp(file, tasks));
    return 0;
  }
  const chosen: AnyTask = selectTask(
    tasks,
    named || (tasks.length > 1 && first !== undefined && !first.startsWith('-'))
      ? first
      : undefined,
  );
  const { rest, raw } = takeInput(named ? afterFile.slice(1) : afterFile);
  const parsed = chosen.parse(rest, {
    usage: `fino run ${file}${tasks.length > 1 ? ` ${chosen.name}` : ''}`,
    input: await parseInput(raw, io),
  });
  if (parsed.help) {
    writeLine(io.stdout, parsed.task.help(parsed.usage));
    return 0;
  }
  // The first Ctrl-C aborts the task's signal; a second one ends the process as usual.
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort(new DOMException('Interrupted', 'AbortError'));
  process.once('SIGINT', onInterrupt);
  let output: unknown;
  try {
    output = await parsed.task.run(parsed.input, {
      mode: parsed.mode,
      writer: writerFor(parsed.mode, io),
      env: io.env,
      cwd: io.cwd,
      signal: interrupt.signal,
    });
  } catch (error) {
    if (!interrupt.signal.aborted) throw error;
    writeLine(io.stderr, 'error: interrupted');
    return 130;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  const rendered = renderOutput(output, parsed.mode);
  if (rendered.text !== '') writeLine(rendered.isError ? io.stderr : io.stdout, rendered.text);
  return rendered.isError ? 1 : 0;
}

/** `fino run`: runs one exported tool or task with options from the command line. */
export const run: Command = {
  name: 'run',
  summary: 'Run a tool or task exported by a module',
  usage,
  run: (argv, io) => main(argv, io).catch((error: unknown) => reportError(error, io)),
};
