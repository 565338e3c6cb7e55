/**
 * A test's child process: a TypeScript script run by Node.js (through tsx) with one JSON
 * command as its argument — a worker that opens a store, runs something and is often
 * SIGKILLed on purpose. The script prints `ready` on a line of its own when it waits at
 * a barrier, and its answer as one JSON line before it exits.
 *
 * @example
 * ```ts
 * const child = nodeChild(WORKER, { op: 'start', db, runId }, { FINO_TEST_KILL_IN: 'pack' });
 * expect(await child.done).toEqual({ killed: 'SIGKILL' }); // killed by itself
 * const waiting = nodeChild(WORKER, { op: 'drain', db });
 * await waiting.ready;
 * waiting.process.kill('SIGKILL');
 * ```
 */
import { type ChildProcess, spawn } from 'node:child_process';

/**
 * How long a test that starts child processes may take: they start slowly on a loaded
 * machine, so this is generous, never a race against the clock.
 */
export const PROCESS_TIMEOUT_MS = 120_000;

export interface Child {
  process: ChildProcess;
  /** Resolves when the child printed `ready` (only a script with a barrier does). */
  ready: Promise<void>;
  /**
   * Resolves when the child has exited: with its last JSON line, or `{ killed: signal }`
   * when a signal ended it; rejects when it exited without an answer (with its output).
   */
  done: Promise<Record<string, unknown>>;
  /** What the child printed so far. */
  output(): { stdout: string; stderr: string };
}

/** Starts `script` with `command` (as JSON) in a new Node.js process; `env` adds variables. */
export function nodeChild(
  script: string,
  command: object,
  env: Record<string, string> = {},
): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(command)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.split('\n').includes('ready')) markReady();
  });
  child.stderr.on('data', (chunk) => {
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
      if (!line)
        return reject(new Error(`${script} exited ${code} without an answer: ${err || out}`));
      resolve(JSON.parse(line));
    });
  });
  return { process: child, ready, done, output: () => ({ stdout: out, stderr: err }) };
}
