/**
 * Dispatches `fino [--verbose] <command> …` to the command table. Loads no command for
 * `--help` and `--version`, and only the command it runs otherwise; that command (a
 * task) parses its own flags and prints its own `--help`.
 */
import { readFileSync } from 'node:fs';
import { closestName, nearestFlag } from '../internal/known-keys.ts';
import { type CommandIo, writeLine } from './command.ts';
import { commands } from './commands/index.ts';
import { EXIT } from './exit-codes.ts';
import { reportError, reportProblem } from './report-error.ts';

const HINT = 'Run "fino --help" for usage.';

const version = (): string =>
  (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

const help = (): string => {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: fino [--verbose] <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help     Show this help ("fino <command> --help" for a command)',
    '  -v, --version  Print the version',
    '  --verbose      Print stack traces with errors (or set FINO_DEBUG=1)',
    '',
    'Exit codes: 0 success, 1 failure, 2 usage error, 3 approval not given,',
    '4 a tool waits for an answer and there is no terminal, 130 interrupted.',
  ].join('\n');
};

/**
 * Runs the `fino` command line with `argv` (without `node` and the script) and
 * resolves to the exit code. Never throws: every failure is printed as
 * `fino: <message>` and a hint line.
 *
 * @example
 * ```ts
 * import { main } from './main.ts';
 *
 * process.exitCode = await main(process.argv.slice(2));
 * ```
 */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  let rest = argv;
  while (rest[0] === '--verbose') {
    io = { ...io, verbose: true };
    rest = rest.slice(1);
  }
  const [name, ...args] = rest;
  if (name === '--version' || name === '-v') {
    writeLine(io.stdout, version());
    return EXIT.ok;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    writeLine(io.stdout, help());
    return EXIT.ok;
  }
  if (name === undefined) {
    return reportProblem(
      io,
      `missing command; expected one of ${commands.map((c) => c.name).join(', ')}`,
      HINT,
      EXIT.usage,
    );
  }
  if (name.startsWith('-')) {
    const closest = nearestFlag(name, ['--help', '--version', '--verbose']);
    return reportProblem(
      io,
      `unknown option ${name};${closest === undefined ? '' : ` did you mean ${closest}?`} expected a command (${commands.map((c) => c.name).join(', ')}) or --help, --version, --verbose`,
      HINT,
      EXIT.usage,
    );
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    const closest = closestName(
      name,
      commands.map((c) => c.name),
    );
    return reportProblem(
      io,
      `unknown command "${name}";${closest === undefined ? '' : ` did you mean ${closest}?`} expected one of ${commands.map((c) => c.name).join(', ')}`,
      HINT,
      EXIT.usage,
    );
  }
  try {
    return await (await entry.load()).run(args, io);
  } catch (error) {
    return reportError(error, io, `Run "fino ${name} --help" for usage.`);
  }
}

/**
 * The real process's streams, directory and environment.
 *
 * @example
 * ```ts
 * import { main, processIo } from './main.ts';
 *
 * await main(['tools', 'tools.ts'], processIo());
 * ```
 */
export function processIo(): CommandIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
  };
}
