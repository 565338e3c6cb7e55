/**
 * Dispatches `fino <command> …` to the command table.
 */
import { readFileSync } from 'node:fs';
import { type CommandIo, writeLine } from './command.ts';
import { commands } from './commands/index.ts';

const version = (): string =>
  (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

const help = (): string => {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: fino <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help     Show this help ("fino <command> --help" for a command)',
    '  -v, --version  Print the version',
  ].join('\n');
};

/**
 * Runs the `fino` command line with `argv` (without `node` and the script) and
 * resolves to the exit code.
 *
 * @example
 * ```ts
 * import { main } from './main.ts';
 *
 * process.exitCode = await main(process.argv.slice(2));
 * ```
 */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    writeLine(io.stdout, version());
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    writeLine(name === undefined ? io.stderr : io.stdout, help());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    writeLine(
      io.stderr,
      `error: unknown command "${name}"; expected one of ${commands.map((c) => c.name).join(', ')}`,
    );
    writeLine(io.stderr, 'Run "fino --help" for usage.');
    return 2;
  }
  if (rest[0] === '--help' || rest[0] === '-h') {
    writeLine(io.stdout, command.usage);
    return 0;
  }
  return command.run(rest, io);
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
