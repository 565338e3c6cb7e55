/**
 * The crash scenarios of the workflow tests, run against any store: real child processes
 * SIGKILLed inside and between steps and while a timer waits, and four workers racing over
 * 500 runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { WorkflowStore } from '../../src/workflow/index.ts';

const CHILD = join(import.meta.dirname, 'fixtures', 'crash-worker.ts');

/** Where the children find the store, and where they log their side effects. */
export interface Place {
  db: string;
  schema?: string;
  log: string;
}

interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  done: Promise<Record<string, unknown>>;
}

/** Starts the crash worker with a command; `env` adds variables. */
export function child(command: Record<string, unknown>, env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(command)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let markReady: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  proc.stdout!.on('data', (chunk) => {
    out += chunk;
    if (out.split('\n').includes('ready')) markReady();
  });
  proc.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  const done = new Promise<Record<string, unknown>>((resolve, reject) => {
    proc.on('error', reject);
    proc.on('close', (code, signal) => {
      if (signal) return resolve({ killed: signal });
      const line = out
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{'));
      if (!line) return reject(new Error(`worker exited ${code} without an answer: ${err || out}`));
      resolve(JSON.parse(line));
    });
  });
  return { process: proc, ready, done };
}

/** The side effects the children logged, in order. */
export const readLog = (log: string): Array<Record<string, unknown>> =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

/** Waits until a dead worker's lease on the run has expired (so another may take it). */
async function leaseExpired(store: WorkflowStore, runId: string) {
  for (;;) {
    const run = await store.get(runId);
    if (!run?.leaseOwner || (run.leaseExpiresAt ?? 0) < Date.now() - 5) return;
    await sleep(25);
  }
}

/**
 * Kills workers inside a step, between steps, after consuming a signal and while a timer
 * waits; checks that no completed step ran twice, the signal was consumed once and the
 * timer fired after the restart.
 */
export async function crashScenario(store: WorkflowStore, place: Place): Promise<void> {
  const runId = 'order-1';
  const base = { ...place, runId, leaseMs: 400 };
  // 1. Killed inside "pack": charge is checkpointed, pack's effect happened, its checkpoint did not.
  expect(await child({ ...base, op: 'start' }, { FINO_TEST_KILL_IN: 'pack' }).done).toEqual({
    killed: 'SIGKILL',
  });
  expect((await store.history(runId)).map((e) => e.id)).toEqual(['charge']);
  await leaseExpired(store, runId);
  // 2. A new process takes the run over: pack runs again (same idempotency key), charge does not.
  expect(await child({ ...base, op: 'until', until: 'waiting' }).done).toEqual({
    ok: true,
    status: 'waiting',
  });
  // 3. The scan arrives; a worker consumes it, then dies inside the next step.
  await store.signal(runId, 'scan', JSON.stringify('scanned'), 10);
  expect(await child({ ...base, op: 'until' }, { FINO_TEST_KILL_IN: 'after-scan' }).done).toEqual({
    killed: 'SIGKILL',
  });
  await store.signal(runId, 'scan', JSON.stringify('duplicate'), 10); // must never be read by that wait
  await leaseExpired(store, runId);
  // 4. A worker parks the run on its cool-off timer and is killed while it waits.
  const sleeper = child({ ...base, op: 'until', until: 'waiting' });
  expect(await sleeper.done).toEqual({ ok: true, status: 'waiting' });
  const parked = (await store.get(runId))!;
  expect(parked.waiting?.timerDueAt).toBeGreaterThan(Date.now() - 60_000);
  const killedWhileWaiting = child({ ...base, op: 'until' });
  await killedWhileWaiting.ready;
  killedWhileWaiting.process.kill('SIGKILL');
  expect(await killedWhileWaiting.done).toEqual({ killed: 'SIGKILL' });
  // 5. After the restart, the timer set before it fires; between steps: kill before "ship" starts.
  expect(await child({ ...base, op: 'until' }, { FINO_TEST_KILL_BEFORE: 'ship' }).done).toEqual({
    killed: 'SIGKILL',
  });
  await leaseExpired(store, runId);
  expect(await child({ ...base, op: 'until' }).done).toEqual({ ok: true, status: 'done' });

  const run = (await store.get(runId))!;
  expect(JSON.parse(run.output!)).toEqual({ shipped: runId, scan: 'scanned' });
  const steps = readLog(place.log).map((e) =>
    e.step === 'after-scan' ? `after-scan:${e.scan}` : e.step,
  );
  expect(steps).toEqual([
    'charge',
    'pack',
    'pack',
    'after-scan:scanned',
    'after-scan:scanned',
    'ship',
  ]);
  const keys = readLog(place.log)
    .filter((e) => e.step === 'pack')
    .map((e) => e.idempotencyKey);
  expect(keys).toEqual([`${runId}:pack`, `${runId}:pack`]);
  const history = await store.history(runId);
  const cool = history.find((e) => e.id === 'cool-off')!;
  expect(cool.state).toBe('done');
  expect(cool.endedAt).toBeGreaterThanOrEqual(cool.dueAt!);
}

/** Four worker processes race over 500 runs: each run's step executes exactly once. */
export async function raceScenario(
  store: WorkflowStore,
  place: Place,
  count: { start(n: number, o: object): Promise<unknown> },
) {
  for (let n = 0; n < 500; n++) await count.start(n, { store, runId: `count-${n}` });
  // The four start together: each waits, loaded and connected, for the gate file.
  const gate = `${place.log}.go`;
  const racers = [1, 2, 3, 4].map(() => child({ ...place, op: 'drain', gate }));
  await Promise.all(racers.map((racer) => racer.ready));
  writeFileSync(gate, '');
  const answers = await Promise.all(racers.map((racer) => racer.done));
  for (const answer of answers) expect(answer.ok).toBe(true);
  const work = readLog(place.log).filter((e) => e.step === 'work');
  const seen = new Map<unknown, number>();
  for (const e of work) seen.set(e.n, (seen.get(e.n) ?? 0) + 1);
  expect(seen.size).toBe(500);
  expect([...seen.values()].every((times) => times === 1)).toBe(true);
  expect(new Set(work.map((e) => e.pid)).size).toBeGreaterThan(1); // the workers really shared the runs
  expect((await store.list({ status: 'done', limit: 1_000 })).length).toBe(500);
}
