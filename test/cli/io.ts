// An in-memory CommandIo for running the CLI in-process.
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli/index.ts';

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
export async function cli(argv: string[], stdin = ''): Promise<CliRun> {
  const io = {
    stdin: Readable.from([stdin]),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    cwd: import.meta.dirname,
    env: {},
  };
  const stdout = collect(io.stdout);
  const stderr = collect(io.stderr);
  const code = await main(argv, io);
  return { code, stdout: stdout(), stderr: stderr() };
}
