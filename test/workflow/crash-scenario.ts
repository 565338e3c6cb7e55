/**
 * The crash scenarios of the workflow tests, run against any store: real child processes
 * SIGKILLed inside and between steps, while a timer waits and around an agent's model
 * turns and tool calls, and four workers racing over 500 runs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { WorkflowStore } from '../../src/workflow/index.ts';
import { type Child, nodeChild } from '../helpers/child-process.ts';
import { turnCountingServer } from './turn-counting-server.ts';

const CHILD = join(import.meta.dirname, 'fixtures', 'crash-worker.ts');

/** Where the children find the store, and where they log their side effects. */
export interface Place {
  db: string;
  schema?: string;
  log: string;
}

/** Starts the crash worker with a command; `env` adds variables. */
export const child = (command: Record<string, unknown>, env: Record<string, string> = {}): Child =>
  nodeChild(CHILD, command, env);

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

/**
 * Waits until the child logs that it holds at `point` (see the crash worker's
 * `FINO_TEST_HOLD`), then SIGKILLs it. Fails at once if the child ends first.
 */
async function killAtHold(worker: Child, log: string, point: string): Promise<void> {
  let ended: unknown;
  worker.done.then(
    (answer) => {
      ended = answer;
    },
    (error: unknown) => {
      ended = error;
    },
  );
  while (!readLog(log).some((e) => e.hold === point)) {
    if (ended !== undefined) {
      throw new Error(`the worker ended before holding at "${point}": ${JSON.stringify(ended)}`);
    }
    await sleep(20);
  }
  worker.process.kill('SIGKILL');
  expect(await worker.done).toEqual({ killed: 'SIGKILL' });
}

/**
 * An agent inside a workflow, its model a fake OpenAI server in this process and its tool
 * logging each start and end: workers are SIGKILLed (a) after the first model turn was
 * checkpointed, before the tool ran; (b) inside the tool; (c) after the tool completed,
 * before the next model turn; (d) while that model request is in flight. Each completed
 * (answered) model request is made exactly once, the one in flight is made again; the tool
 * killed inside its run runs again with the same idempotency key (the documented rule for
 * every tool: a call in flight has no result), and once completed never runs again.
 */
export async function agentCrashScenario(store: WorkflowStore, place: Place): Promise<void> {
  const model = await turnCountingServer([
    { toolCalls: [{ id: 'call_1', name: 'file_refund', args: { orderId: 'o-7' } }] },
    { text: 'Refund filed for o-7.', holdFirst: true },
  ]);
  try {
    const runId = 'assist-1';
    const base = { ...place, runId, leaseMs: 400 };
    const key = `${runId}/clerk:call_1`;
    const env = (hold: string) => ({ FINO_TEST_MODEL_URL: model.url, FINO_TEST_HOLD: hold });
    const toolLog = () =>
      readLog(place.log)
        .filter((e) => e.tool === 'file_refund')
        .map((e) => `${e.event}:${e.idempotencyKey}`);
    // (a) The first model turn completed and was checkpointed; killed before the tool ran.
    const first = child({ ...base, op: 'start', workflow: 'assistant' }, env('tool-before'));
    await killAtHold(first, place.log, 'tool-before');
    expect(model.counts()).toEqual({ 1: 1 });
    expect(toolLog()).toEqual([]);
    await leaseExpired(store, runId);
    // (b) The restart resumes at the tool without asking the model again; killed inside the tool.
    await killAtHold(child({ ...base, op: 'until' }, env('tool-inside')), place.log, 'tool-inside');
    expect(model.counts()).toEqual({ 1: 1 });
    expect(toolLog()).toEqual([`start:${key}`]);
    await leaseExpired(store, runId);
    // (c) The tool had no result, so it runs again and completes; killed before the next turn.
    await killAtHold(child({ ...base, op: 'until' }, env('model:2')), place.log, 'model:2');
    expect(model.counts()).toEqual({ 1: 1 });
    expect(toolLog()).toEqual([`start:${key}`, `start:${key}`, `end:${key}`]);
    await leaseExpired(store, runId);
    // (d) Killed while the request for turn 2 is in flight (the server holds its answer).
    const inFlight = child({ ...base, op: 'until' }, env('none'));
    await model.arrived(2);
    inFlight.process.kill('SIGKILL');
    expect(await inFlight.done).toEqual({ killed: 'SIGKILL' });
    await leaseExpired(store, runId);
    // The last restart asks for turn 2 again (it was never answered) and finishes the run.
    expect(await child({ ...base, op: 'until' }, env('none')).done).toEqual({
      ok: true,
      status: 'done',
    });
    expect(model.counts()).toEqual({ 1: 1, 2: 2 });
    expect(model.answered()).toEqual({ 1: 1, 2: 1 });
    expect(toolLog()).toEqual([`start:${key}`, `start:${key}`, `end:${key}`]);
    const [asked, askedAgain] = model.bodies.filter((body) => body.messages.length > 1);
    expect(askedAgain).toEqual(asked); // the same conversation, from the checkpoint
    expect(asked.messages.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'refund filed for o-7',
    });
    const run = (await store.get(runId))!;
    expect(JSON.parse(run.output!)).toBe('Refund filed for o-7.');
    expect((await store.history(runId)).map((e) => [e.id, e.kind, e.state])).toEqual([
      ['clerk', 'agent', 'done'],
    ]);
  } finally {
    await model.close();
  }
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
