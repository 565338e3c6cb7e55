/** Spawning the session tests' child processes (fixtures/worker.ts) and reading their answers. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const WORKER = join(import.meta.dirname, 'fixtures', 'worker.ts');

export interface Child {
  process: ChildProcess;
  /** Resolves when the child printed `ready` (only with a barrier). */
  ready: Promise<void>;
  /** Resolves with the child's JSON answer (or `{ killed: signal }`) when it exits. */
  done: Promise<Record<string, unknown>>;
}

/** Starts `fixtures/worker.ts` with a command; `env` adds variables. */
export function worker(command: Record<string, unknown>, env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(command)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let markReady: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout!.on('data', (chunk) => {
    out += chunk;
    if (out.split('\n').includes('ready')) markReady();
  });
  child.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  const done = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal) return resolve({ killed: signal });
      const line = out
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{'));
      if (!line) return reject(new Error(`worker exited ${code} without an answer: ${err || out}`));
      resolve(JSON.parse(line));
    });
  });
  return { process: child, ready, done };
}
