/**
 * `fino run <file> [tool] [--flag value …] [--input JSON | -] [--yes] [--json]`.
 */
import { type AnyTask, type Task, task, UsageError, type Writer } from '../../task/index.ts';
import { type Infer, v } from '../../validate/index.ts';
import { type CommandIo, isInteractive, writeLine } from '../command.ts';
import { escapeText, safeJson } from '../escape-text.ts';
import { EXIT } from '../exit-codes.ts';
import { loadTasks, selectTask } from '../load-module.ts';
import { progressDisplay } from '../progress-display.ts';
import { askLine } from '../prompt.ts';
import { readStream } from '../read-stream.ts';
import { renderOutput } from '../render-output.ts';
import { reportProblem } from '../report-error.ts';
import { taskCommand } from '../task-command.ts';

const description = `Runs a tool or task exported by <file> (JavaScript or TypeScript): its default export,
or the named export called [tool] (optional when the module exports only one).
[tool-args…] is [tool] [--flag value …]: the tool's options come from its input
schema; "fino run <file> [tool] --help" lists them.

A tool that requires approval shows its call and asks "Run it? [y/N]" when stdin and
stderr are a terminal; without one it runs only with --yes. A tool that suspends shows
its question and reads the answer (JSON, or else text) from the terminal.

Exit codes: 0 success, 1 the tool reported isError or threw, 2 usage or validation error,
3 approval not given (declined, or no terminal and no --yes), 4 the tool waits for an
answer and there is no terminal, 130 interrupted (Ctrl-C aborts the tool's signal; a
second Ctrl-C exits at once).`;

/** fino's own options of `fino run`; every other argument goes to the tool. */
const runInput = v.object({
  file: v.string().describe('a JavaScript or TypeScript module exporting tools or tasks'),
  toolArgs: v
    .array(v.string())
    .describe("the tool's name, when the module exports several, then its options (--json too)"),
  input: v
    .string()
    .optional()
    .describe('the whole input as JSON ("-" reads it from stdin); flags override it'),
  yes: v.boolean().optional().describe('approve a tool that requires approval without asking'),
});

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
    throw new UsageError(
      `--input: expected JSON, received text that does not parse (${(error as Error).message})`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`--input: expected a JSON object, received ${text.trim().slice(0, 40)}`);
  }
  return value as Record<string, unknown>;
}

/** Reports Ctrl-C and returns its exit code. */
const interrupted = (io: CommandIo): number => {
  writeLine(io.stderr, 'fino: interrupted');
  return EXIT.interrupted;
};

/** Text for `stream`: escaped when it is a terminal, as it is when piped. */
const forStream = (stream: CommandIo['stdout'], text: string): string =>
  stream.isTTY ? escapeText(text, { multiline: true }) : text;

/**
 * Asks for approval of a call to a tool that `requiresApproval`: `--yes` approves; on a
 * terminal the call (tool, arguments, risk) is shown and `y` approves. Resolves to the
 * exit code when the call must not run, `undefined` when it may.
 */
async function approve(
  task: AnyTask,
  input: unknown,
  yes: boolean,
  io: CommandIo,
): Promise<number | undefined> {
  if (yes || !task.requiresApproval) return undefined;
  const name = escapeText(task.name);
  const risk = task.risk === undefined ? '' : ` (risk: ${task.risk})`;
  if (!isInteractive(io)) {
    return reportProblem(
      io,
      `${name}${risk} requires approval, and there is no terminal to ask; it did not run`,
      'Pass --yes to approve it: fino run … --yes',
      EXIT.notApproved,
    );
  }
  writeLine(io.stderr, `fino: ${name} requires approval${risk}`);
  writeLine(io.stderr, `  tool: ${name}`);
  writeLine(io.stderr, `  arguments: ${safeJson(input)}`);
  if (task.risk !== undefined) writeLine(io.stderr, `  risk: ${task.risk}`);
  const answer = await askLine(io, 'Run it? [y/N] ');
  if (answer === null) return interrupted(io);
  if (/^y(es)?$/i.test(answer.trim())) return undefined;
  return reportProblem(
    io,
    `not approved; ${name} did not run`,
    'Answer y to approve, or pass --yes.',
    EXIT.notApproved,
  );
}

/** The reason and payload of a `SuspendSignal`, thrown as `suspend(reason, payload)` or `suspend({ reason, payload })`. */
function suspension(error: { message?: unknown; reason?: unknown; payload?: unknown }): {
  reason: string;
  payload: unknown;
} {
  const reason =
    typeof error.reason === 'string'
      ? error.reason
      : typeof error.message === 'string' && error.message !== ''
        ? error.message
        : 'Suspended';
  return { reason, payload: error.payload };
}

/** The operator's answer: JSON when it parses, the text otherwise. */
function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Asks the operator to answer a suspended call. Resolves to `{ value }`, or to the exit
 * code when there is no terminal or the operator pressed Ctrl-C.
 */
async function answerSuspension(
  task: AnyTask,
  error: { message?: unknown; reason?: unknown; payload?: unknown },
  io: CommandIo,
): Promise<{ value: unknown } | number> {
  const { reason, payload } = suspension(error);
  const name = escapeText(task.name);
  const details = payload === undefined ? '' : `\n  payload: ${safeJson(payload)}`;
  if (!isInteractive(io)) {
    return reportProblem(
      io,
      `${name} suspended and waits for an answer: ${escapeText(reason)}${details}`,
      'Run it in a terminal to answer (fino run reads the answer from stdin when stdin and stderr are a terminal).',
      EXIT.suspended,
    );
  }
  writeLine(io.stderr, `fino: ${name} waits for an answer: ${escapeText(reason)}${details}`);
  const answer = await askLine(io, 'Answer (JSON, or text): ');
  return answer === null ? interrupted(io) : { value: parseAnswer(answer) };
}

const writerFor = (mode: 'text' | 'json', io: CommandIo): Writer =>
  mode === 'text'
    ? { mode, writeText: (text) => io.stdout.write(forStream(io.stdout, text)) }
    : { mode, writeJson: (value) => writeLine(io.stdout, safeJson(value)) };

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

async function main(
  { file, toolArgs, input, yes }: Infer<typeof runInput>,
  io: CommandIo,
): Promise<number> {
  const tasks = await loadTasks(file, io);
  const first = toolArgs[0];
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
  const parsed = chosen.parse(named ? toolArgs.slice(1) : toolArgs, {
    usage: `fino run ${file}${tasks.length > 1 ? ` ${chosen.name}` : ''}`,
    input: await parseInput(input, io),
  });
  if (parsed.help) {
    writeLine(io.stdout, parsed.task.help(parsed.usage));
    return 0;
  }
  // A tool awaiting only its signal leaves nothing in the event loop; without this timer
  // Node would end the process (exit 13) instead of waiting for the tool or Ctrl-C.
  const keepAlive = setInterval(() => {}, 2 ** 30);
  try {
    return (
      (await approve(parsed.task, parsed.input, yes === true, io)) ?? (await execute(parsed, io))
    );
  } finally {
    clearInterval(keepAlive);
  }
}

/** Runs the parsed call, answering suspensions from the terminal, and prints the output. */
async function execute(
  parsed: { task: AnyTask; input: unknown; mode: 'text' | 'json' },
  io: CommandIo,
): Promise<number> {
  // The first Ctrl-C aborts the task's signal; a second one ends the process as usual.
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort(new DOMException('Interrupted', 'AbortError'));
  process.once('SIGINT', onInterrupt);
  const progress = progressDisplay(io.stderr);
  let output: unknown;
  try {
    let resume: { value: unknown } | undefined;
    for (;;) {
      try {
        output = await (parsed.task as Task<unknown, unknown>).run(parsed.input, {
          mode: parsed.mode,
          writer: writerFor(parsed.mode, io),
          env: io.env,
          cwd: io.cwd,
          signal: interrupt.signal,
          progress: progress.update,
          log: (level, message) => io.stderr.write(`fino: ${level}: ${message}\n`),
          ...(resume && { resumeValue: resume.value }),
        });
        break;
      } catch (error) {
        if (interrupt.signal.aborted) throw error;
        if ((error as { name?: unknown } | null)?.name !== 'SuspendSignal') throw error;
        progress.end();
        const answered = await answerSuspension(parsed.task, error as object, io);
        if (typeof answered === 'number') return answered;
        resume = answered;
      }
    }
  } catch (error) {
    if (!interrupt.signal.aborted) throw error;
    return interrupted(io);
  } finally {
    progress.end();
    process.off('SIGINT', onInterrupt);
  }
  const rendered = renderOutput(output, parsed.mode);
  const stream = rendered.isError ? io.stderr : io.stdout;
  if (rendered.text !== '') writeLine(stream, forStream(stream, rendered.text));
  return rendered.isError ? EXIT.failure : EXIT.ok;
}

/** `fino run`: runs one exported tool or task with options from the command line. */
export const run = taskCommand('run', (io) =>
  task({
    name: 'run',
    description,
    inputSchema: runInput,
    cli: { positionals: ['file'], passthrough: 'toolArgs' },
    run: (given) => main(given, io),
  }),
);
