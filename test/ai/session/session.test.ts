import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import {
  memoryStore,
  SessionError,
  type SessionRun,
  type Store,
  session,
  sqliteStore,
} from '../../../src/ai/session/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { openSqlite } from '../../helpers/sqlite.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { type Plan, readLog, shopAgent } from './fixtures/shop-agent.ts';

/** An agent whose one tool call waits until the test lets it finish. */
function gatedAgent() {
  let open!: () => void;
  let entered!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const slow = tool({
    name: 'slow',
    description: 'Takes its time.',
    parameters: v.object({}),
    execute: async (_args: Record<string, never>, ctx) => {
      entered();
      await Promise.race([
        gate,
        new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
        ),
      ]);
      return 'slow done';
    },
  });
  const model = scriptedModel(
    Array.from(
      { length: 10 },
      () => (request: { messages: { role: string }[] }) =>
        request.messages.some((m) => m.role === 'assistant')
          ? 'finished'
          : { toolCalls: [{ id: 'slow_1', name: 'slow', args: {} }] },
    ),
  );
  return { agent: agent({ model, tools: [slow] }), open, started };
}

const dir = tempDir('session');
let n = 0;

function setup(plan: Plan, store: Store = memoryStore()) {
  const log = join(dir, `log-${++n}.jsonl`);
  return { store, log, runs: session({ store, agent: shopAgent(plan, log) }) };
}

function expectSuspended(run: SessionRun) {
  if (run.status !== 'suspended') throw new Error(`expected suspended, got ${JSON.stringify(run)}`);
  return run;
}

const failure = async (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: SessionError) => ({ code: error.code, message: error.message }),
  );

describe('session', () => {
  it('suspends for an approval with a token per call, and finishes once approved', async () => {
    const { runs, log } = setup('order');
    const run = expectSuspended(await runs.start('Ship order A1', { threadId: 'customer-9' }));
    expect(run.pending).toEqual([
      expect.objectContaining({
        kind: 'approval',
        toolCallId: 'ship_1',
        toolName: 'ship',
        args: { order: 'A1' },
        risk: 'destructive',
        sideEffects: true,
        token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      }),
    ]);
    expect(readLog(log).map((e) => e.tool)).toEqual(['charge']);

    const done = await runs.approve(run.pending[0].token!, { by: 'ana', note: 'paid' });
    expect(done).toMatchObject({
      runId: run.runId,
      status: 'done',
      text: 'Charged and shipped.',
      threadId: 'customer-9',
    });
    expect(readLog(log).map((e) => e.tool)).toEqual(['charge', 'ship']);
    const got = (await runs.get(run.runId))!;
    expect(got.audit).toEqual([
      {
        at: expect.any(String),
        action: 'approve',
        toolCallId: 'ship_1',
        toolName: 'ship',
        by: 'ana',
        note: 'paid',
      },
    ]);
  });

  it('hands each token out once: get and list show the pending call without it', async () => {
    const { runs } = setup('order');
    const run = expectSuspended(await runs.start('Ship', { runId: 'run-once' }));
    expect(run.pending[0].token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const got = expectSuspended((await runs.get('run-once'))!);
    expect(got.pending).toEqual([expect.objectContaining({ toolCallId: 'ship_1' })]);
    expect(got.pending[0]).not.toHaveProperty('token');
    const [listed] = await runs.list();
    expect(expectSuspended(listed as SessionRun).pending[0]).not.toHaveProperty('token');
    // The call is still addressable by run and call id, as the CLI does.
    expect(await runs.approve({ runId: 'run-once', toolCallId: 'ship_1' })).toMatchObject({
      status: 'done',
    });
  });

  it('gives every tool call an idempotency key that stays the same across the approval', async () => {
    const store = memoryStore();
    const first = setup('order', store);
    const run = expectSuspended(await first.runs.start('Ship', { runId: 'run-key' }));
    // Another session (another worker) decides and continues the run.
    const second = session({ store, agent: shopAgent('order', first.log) });
    await second.approve({ runId: 'run-key', toolCallId: 'ship_1' });
    expect(readLog(first.log).map((e) => e.key)).toEqual(['run-key:charge_1', 'run-key:ship_1']);
    expect(run.runId).toBe('run-key');
  });

  it('makes tokens single-use: a second approval is refused and the tool runs once', async () => {
    const { runs, log } = setup('order');
    const run = expectSuspended(await runs.start('Ship'));
    const token = run.pending[0].token!;
    const results = await Promise.allSettled([
      runs.approve(token, { by: 'a' }),
      runs.approve(token, { by: 'b' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(SessionError);
    expect(lost.reason.code).toBe('ALREADY_DECIDED');
    expect(lost.reason.message).toMatch(/already decided \(approve by [ab] at /);
    expect(await failure(runs.approve(token))).toMatchObject({ code: 'ALREADY_DECIDED' });
    expect(await failure(runs.reject(token, 'no'))).toMatchObject({ code: 'ALREADY_DECIDED' });
    expect(readLog(log).filter((e) => e.tool === 'ship')).toHaveLength(1);
  });

  it('tells the model a rejection and never runs the rejected tool', async () => {
    const { runs, log } = setup('order');
    const run = expectSuspended(await runs.start('Ship'));
    const done = await runs.reject(run.pending[0].token!, 'address unverified', { by: 'bob' });
    expect(done.status).toBe('done');
    const results = done.state!.messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content : [],
    );
    expect(results).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        toolCallId: 'ship_1',
        isError: true,
        content: expect.stringContaining('address unverified'),
      }),
    );
    expect(readLog(log).map((e) => e.tool)).toEqual(['charge']);
    expect((await runs.get(run.runId))!.audit).toMatchObject([
      { action: 'reject', by: 'bob', note: 'address unverified' },
    ]);
    expect(await failure(runs.reject(run.pending[0].token!, ''))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('resumes a suspended tool with the human answer', async () => {
    const { runs } = setup('ask');
    const run = expectSuspended(await runs.start('Order a shirt'));
    expect(run.pending[0]).toMatchObject({
      kind: 'suspend',
      reason: 'Which size?',
      payload: { options: ['S', 'M', 'L'] },
    });
    expect(await failure(runs.approve(run.pending[0].token!))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await failure(runs.resume(run.pending[0].token!, undefined))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('a value is required'),
    });
    const done = await runs.resume(run.pending[0].token!, 'M', { by: 'customer' });
    expect(done).toMatchObject({ status: 'done', text: 'size M' });
  });

  it('leaves a deferred decision to a worker that drains ready runs', async () => {
    const { runs, log, store } = setup('order');
    const a = expectSuspended(await runs.start('Ship a'));
    const b = expectSuspended(await runs.start('Ship b'));
    expect(await runs.approve(a.pending[0].token!, { defer: true })).toMatchObject({
      status: 'ready',
    });
    // b becomes ready later (maybe in the same millisecond): workers take the oldest first
    expect(await runs.approve(b.pending[0].token!, { defer: true })).toMatchObject({
      status: 'ready',
    });
    expect(readLog(log).filter((e) => e.tool === 'ship')).toHaveLength(0);
    const worker = session({ store, agent: shopAgent('order', log), workerId: 'worker-1' });
    const report = await worker.drain();
    expect(report.runs.map((r) => [r.runId, r.status])).toEqual([
      [a.runId, 'done'],
      [b.runId, 'done'],
    ]);
    expect(report.corrupt).toEqual([]);
    expect((await worker.drain()).runs).toEqual([]);
    expect(
      readLog(log)
        .filter((e) => e.tool === 'ship')
        .map((e) => e.key),
    ).toEqual([`${a.runId}:ship_1`, `${b.runId}:ship_1`]);
  });

  it('cancels a waiting run: its tokens no longer decide anything', async () => {
    const { runs, log } = setup('order');
    const run = expectSuspended(await runs.start('Ship'));
    expect(await runs.cancel(run.runId, { by: 'ops', note: 'duplicate order' })).toMatchObject({
      status: 'cancelled',
    });
    expect(await failure(runs.approve(run.pending[0].token!))).toMatchObject({
      code: 'NOT_PENDING',
    });
    expect(await failure(runs.cancel(run.runId))).toMatchObject({ code: 'NOT_PENDING' });
    expect(readLog(log).filter((e) => e.tool === 'ship')).toHaveLength(0);
    expect((await runs.get(run.runId))!.audit).toMatchObject([
      { action: 'cancel', by: 'ops', note: 'duplicate order' },
    ]);
  });

  it('records a failing run as an error and retries it only when asked', async () => {
    const { runs } = setup('broken');
    const run = await runs.start('Anything');
    expect(run).toMatchObject({
      status: 'error',
      error: expect.stringContaining('model unavailable'),
    });
    expect(await runs.continue(run.runId)).toMatchObject({ status: 'error' });
    expect(await runs.continue(run.runId, { retryErrors: true })).toMatchObject({
      status: 'error',
    });
  });

  it('lists runs by status and thread', async () => {
    const { runs } = setup('order');
    const a = await runs.start('a', { threadId: 't1' });
    await runs.start('b', { threadId: 't2' });
    expect((await runs.list({ threadId: 't1' })).map((r) => r.runId)).toEqual([a.runId]);
    expect((await runs.list({ status: 'suspended' })).length).toBe(2);
    expect(await runs.list({ status: 'done' })).toEqual([]);
  });

  it('refuses bad arguments with errors naming what was expected', async () => {
    const { runs } = setup('order');
    expect(await failure(runs.start(42 as never))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('string or an array'),
    });
    expect(await failure(runs.start('x', { runId: '' }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await runs.start('x', { runId: 'same' });
    expect(await failure(runs.start('x', { runId: 'same' }))).toMatchObject({ code: 'RUN_EXISTS' });
    expect(await failure(runs.approve('not-a-token'))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failure(runs.approve({ runId: 'same', toolCallId: 'nope' }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await failure(runs.approve(null as never))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await failure(runs.cancel('missing'))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failure(runs.cancel(undefined as never))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await failure(runs.get(42 as never))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await failure(runs.continue('' as never))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await failure(runs.list({ status: 'paused' as never }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('status: expected one of running, ready'),
    });
    expect(await failure(runs.list({ threadId: 7 as never }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await runs.get('missing')).toBeUndefined();
    expect(() => session({ store: {} as never, agent: shopAgent('order', 'x') })).toThrow(
      /store: expected a Store/,
    );
    expect(() => session({ store: memoryStore(), agent: {} as never })).toThrow(
      /generate\(\) and resume\(\)/,
    );
    expect(() =>
      session({ store: memoryStore(), agent: shopAgent('order', 'x'), leaseMs: 0 }),
    ).toThrow(/leaseMs/);
    expect(Object.prototype).not.toHaveProperty('polluted');
    await runs.start([{ role: 'user', content: 'x', __proto__: { polluted: true } } as never]);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it.each([
    [0, 'expected a number of milliseconds > 0 and ≤ 2147483647', 'received number 0'],
    [
      2 ** 31,
      'expected a number of milliseconds > 0 and ≤ 2147483647',
      `received number ${2 ** 31}`,
    ],
    // A lease of 75 days once made the heartbeat (a third of it) overflow to 1 ms.
    [
      75 * 86_400_000,
      'expected a number of milliseconds > 0',
      `received number ${75 * 86_400_000}`,
    ],
    [Number.POSITIVE_INFINITY, 'expected a number of milliseconds', 'received number Infinity'],
    [5, 'expected a number of milliseconds ≥ 10', 'received 5'],
  ])('refuses leaseMs %s at construction with a RangeError', (leaseMs, expected, received) => {
    const make = () => session({ store: memoryStore(), leaseMs });
    expect(make).toThrow(RangeError);
    expect(make).toThrow(new RegExp(`^session: leaseMs: ${expected}.*${received}$`));
  });

  it('beats within the timer range for the longest lease it accepts', async () => {
    const delays: number[] = [];
    const original = globalThis.setInterval;
    globalThis.setInterval = ((callback: () => void, delay: number) => {
      delays.push(delay);
      return original(callback, delay);
    }) as typeof setInterval;
    try {
      const agent = shopAgent('order', join(dir, 'long.jsonl'));
      await session({ store: memoryStore(), agent, leaseMs: 2 ** 31 - 1 }).start('Ship');
    } finally {
      globalThis.setInterval = original;
    }
    expect(delays).toEqual([(2 ** 31 - 1) / 3]);
  });

  it('stops a worker whose run was taken over, without writing over the new holder', async () => {
    const path = join(dir, 'taken.db');
    const gated = gatedAgent();
    const runs = session({ store: sqliteStore(path), agent: gated.agent, workerId: 'first' });
    const running = runs.start('go', { runId: 'run-taken' });
    await gated.started;
    const db = openSqlite(path);
    // Another worker took the run over (as after an expired lease) and owns it now.
    db.prepare(`UPDATE fino_runs SET lease_owner = 'second' WHERE run_id = 'run-taken'`).run();
    const stateBefore = db.prepare(`SELECT state FROM fino_runs WHERE run_id = 'run-taken'`).get();
    gated.open();
    expect(await running).toMatchObject({ status: 'running', worker: 'second' });
    expect(db.prepare(`SELECT state FROM fino_runs WHERE run_id = 'run-taken'`).get()).toEqual(
      stateBefore,
    );
    db.close();
  });

  it('releases a run whose caller aborted, resumable from its last checkpoint', async () => {
    const gated = gatedAgent();
    const store = memoryStore();
    const runs = session({ store, agent: gated.agent });
    const controller = new AbortController();
    const running = runs.start('go', { runId: 'run-aborted', signal: controller.signal });
    await gated.started;
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(await runs.get('run-aborted')).toMatchObject({ status: 'ready' });
    gated.open();
    expect(await runs.continue('run-aborted')).toMatchObject({ status: 'done', text: 'finished' });
  });

  it('reports a corrupt stored run by id, leaves it untouched, and keeps the others working', async () => {
    const path = join(dir, 'corrupt.db');
    const { runs, log } = setup('order', sqliteStore(path));
    const bad = expectSuspended(await runs.start('bad'));
    const waiting = expectSuspended(await runs.start('waiting'));
    const good = expectSuspended(await runs.start('good'));
    await runs.approve(bad.pending[0].token!, { defer: true });
    const db = openSqlite(path);
    const corrupt = db.prepare(`UPDATE fino_runs SET state = '{"version": 2}' WHERE run_id = ?`);
    corrupt.run(bad.runId);
    corrupt.run(waiting.runId);
    const row = db.prepare('SELECT * FROM fino_runs WHERE run_id = ?');
    const before = row.get(bad.runId);

    expect(await failure(runs.get(bad.runId))).toMatchObject({
      code: 'CORRUPT_RUN',
      message: expect.stringContaining(bad.runId),
    });
    const listed = await runs.list();
    expect(listed.find((r) => r.runId === bad.runId)).toEqual({
      runId: bad.runId,
      status: 'corrupt',
      error: expect.stringContaining('unknown state version 2'),
    });
    expect(await failure(runs.approve(waiting.pending[0].token!))).toMatchObject({
      code: 'CORRUPT_RUN',
    });
    expect(await runs.approve(good.pending[0].token!)).toMatchObject({ status: 'done' });
    const report = await runs.drain();
    expect(report.runs).toEqual([]);
    expect(report.corrupt).toEqual([
      expect.objectContaining({ runId: bad.runId, status: 'corrupt' }),
    ]);
    expect(
      readLog(log)
        .filter((e) => e.tool === 'ship')
        .map((e) => e.key),
    ).toEqual([`${good.runId}:ship_1`]);
    expect(row.get(bad.runId)).toEqual(before);
    db.close();
  });
});
