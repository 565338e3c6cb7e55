// An in-memory CommandIo for running the CLI in-process.
import { PassThrough, Readable } from 'node:stream';
import { type CommandIo, main } from '../../src/cli/index.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const collect = (stream: PassThrough): (() => string) => {
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return () => text;
};

/** Runs `fino <argv>` in-process with `stdin` as standard input. */
export async function cli(argv: string[], stdin = '', env: CommandIo['env'] = {}): Promise<CliRun> {
  const io = {
    stdin: Readable.from([stdin]),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    cwd: import.meta.dirname,
    env,
  };
  const stdout = collect(io.stdout);
  const stderr = collect(io.stderr);
  const code = await main(argv, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

/** The questions `fino run` asks on a terminal. */
export const PROMPTS = /Run it\? \[y\/N\] |Answer \(JSON, or text\): /g;

/**
 * Runs `fino <argv>` in-process as if stdin, stdout and stderr were a terminal, typing
 * `lines` one by one, each after the previous prompt.
 */
export async function cliOnTerminal(argv: string[], lines: string[]): Promise<CliRun> {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  const out = collect(stdout);
  let err = '';
  let prompts = 0;
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
    const asked = err.match(PROMPTS)?.length ?? 0;
    while (prompts < asked && prompts < lines.length) stdin.write(`${lines[prompts++]}\n`);
  });
  const code = await main(argv, { stdin, stdout, stderr, cwd: import.meta.dirname, env: {} });
  return { code, stdout: out(), stderr: err };
}
