/**
 * examples/chat/server.ts as a real child process for the browser tests: started with
 * `--port` and `--db`, on the offline demo model (the provider keys are blanked), ready
 * once it printed its address.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface ChatServerProcess {
  process: ChildProcess;
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  port: number;
  /** What it printed so far. */
  output(): string;
  /** SIGTERM, and resolves once it exited (at once when it already had). */
  stop(): Promise<void>;
}

/** Starts the example on `port` (0: a free one) over the SQLite file `db`, with more `args`. */
export function startChatServer(
  db: string,
  { port = 0, args = [] }: { port?: number; args?: string[] } = {},
): Promise<ChatServerProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      join(root, 'node_modules/tsx/dist/loader.mjs'),
      join(root, 'examples/chat/server.ts'),
      '--port',
      String(port),
      '--db',
      db,
      ...args,
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: join(root, 'tsconfig.json'),
        OPENAI_API_KEY: '',
        ANTHROPIC_API_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk;
      const url = /fino chat example: (http:\/\/\S+?)\/?$/m.exec(out)?.[1];
      if (!url) return;
      child.stdout.off('data', onData);
      child.stdout.on('data', (more: Buffer) => {
        out += more;
      });
      const origin = new URL(url).origin;
      resolve({
        process: child,
        origin,
        port: Number(new URL(url).port),
        output: () => out,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.once('exit', (code, signal) =>
      reject(
        new Error(`examples/chat/server.ts exited (${code ?? signal}) before listening: ${out}`),
      ),
    );
  });
}
