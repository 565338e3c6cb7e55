/**
 * The conformance suite every session store passes: one `describe` per store, the same
 * assertions. Stores with `sql` (direct access to their database) also get the
 * migration and bad-data checks, which write rows behind the store's back.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingCall, RunState } from '../../../../src/ai/agent/index.ts';
import { SessionError, type Store, type StoredRun } from '../../../../src/ai/session/index.ts';
import { MIGRATIONS } from '../../../../src/ai/session/store/migrations.ts';
import { type Dialect, versionsTableSql } from '../../../../src/internal/sql/index.ts';

/** A store under test, and (when possible) raw SQL on its database with unqualified `fino_*` names. */
export interface StoreUnderTest {
  store: Store;
  sql?: (query: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
  /** Opens a second store on the same database (another connection). */
  reopen?: () => Store;
  close?: () => Promise<void>;
}

export const stateOf = (runId: string, text = 'hi'): RunState => ({
  version: 1,
  runId,
  messages: [{ role: 'user', content: text }],
  steps: [],
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
});

export const pendingCall = (
  toolCallId: string,
  kind: PendingCall['kind'] = 'approval',
): PendingCall => ({
  kind,
  toolCallId,
  toolName: 'remove_file',
  args: { path: `${toolCallId}.txt` },
  argsHash: 'h',
  risk: 'destructive',
});

const token = (n: number) => `tok${String(n).padStart(29, '0')}`;
/** What a store keeps of a token: its SHA-256 in hex (computed here independently). */
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
let seq = 0;
const newId = () => `run_${process.pid}_${String(++seq).padStart(6, '0')}`;

/** Creates a run leased to `w1` and suspends it with the given pending calls. */
export async function suspended(
  store: Store,
  ids: string[],
  kind: PendingCall['kind'] = 'approval',
) {
  const runId = newId();
  await store.create({ runId, input: 'hi', owner: 'w1', leaseMs: 60_000 });
  const base = seq * 100;
  const pending = ids.map((id, i) => ({ call: pendingCall(id, kind), token: token(base + i) }));
  expect(
    await store.finish(runId, 'w1', { status: 'suspended', state: stateOf(runId), pending }),
  ).toMatchObject({ runId, status: 'suspended', pending });
  return { runId, tokens: pending.map((p) => p.token) };
}

const code = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SessionError);
    const { code, message, runId } = error as SessionError;
    return { code, message, runId };
  }
  throw new Error('expected a SessionError');
};

/**
 * Registers the suite for one store. `open` resolves to `undefined` when the store's
 * database is not available (the tests then skip, visibly); `rawAccess` adds the tests
 * that need `sql` and `reopen`.
 */
export function storeConformance(
  name: string,
  open: () => Promise<StoreUnderTest | undefined>,
  options: { rawAccess: boolean },
) {
  describe(`${name} store conformance`, () => {
    let subject: StoreUnderTest | undefined;
    let store: Store;
    beforeAll(async () => {
      subject = await open();
      if (subject) store = subject.store;
    });
    afterAll(async () => {
      await subject?.store.close();
      await subject?.close?.();
    });
    const test = (title: string, body: () => Promise<void>) =>
      it(title, async (ctx) => {
        if (!subject) ctx.skip();
        await body();
      });

    test('creates a run leased to its worker and reads it back', async () => {
      const runId = newId();
      await store.create({
        runId,
        threadId: 't1',
        input: [{ role: 'user', content: 'x' }],
        owner: 'w1',
        leaseMs: 60_000,
      });
      const run = (await store.get(runId))!;
      expect(run).toMatchObject({
        runId,
        threadId: 't1',
        status: 'running',
        leaseOwner: 'w1',
        pending: [],
      });
      expect(run.input).toEqual([{ role: 'user', content: 'x' }]);
      expect(run.leaseExpiresAt! - Date.now()).toBeGreaterThan(50_000);
      expect(await store.get('missing')).toBeUndefined();
      expect(
        await code(store.create({ runId, input: 'again', owner: 'w2', leaseMs: 1000 })),
      ).toMatchObject({
        code: 'RUN_EXISTS',
      });
    });

    test('gives every change of a run a revision above every earlier change of any run (no millisecond ties)', async () => {
      const revision = async (runId: string) => (await store.get(runId))!.revision!;
      const [a, b] = [newId(), newId()];
      await store.create({ runId: a, input: 'a', owner: 'w1', leaseMs: 60_000 });
      await store.create({ runId: b, input: 'b', owner: 'w1', leaseMs: 60_000 });
      const seen = [await revision(a), await revision(b)];
      await store.checkpoint(a, 'w1', stateOf(a), 60_000);
      seen.push(await revision(a));
      await store.finish(b, 'w1', { status: 'suspended', state: stateOf(b), pending: [] });
      seen.push(await revision(b));
      await store.cancel(a, { by: 'ops' });
      seen.push(await revision(a));
      expect(seen.every((r) => Number.isInteger(r))).toBe(true);
      expect([...seen].sort((x, y) => x - y)).toEqual(seen);
      expect(new Set(seen).size).toBe(seen.length);
      const listed = (await store.list()).filter(
        (r): r is StoredRun => !(r instanceof SessionError) && (r.runId === a || r.runId === b),
      );
      expect(listed.map((r) => r.revision)).toEqual([seen[4], seen[3]]);
    });

    test('saves checkpoints only for the worker holding the lease', async () => {
      const runId = newId();
      await store.create({ runId, input: 'hi', owner: 'w1', leaseMs: 60_000 });
      expect(await store.checkpoint(runId, 'w1', stateOf(runId, 'first'), 60_000)).toBe(true);
      expect(await store.checkpoint(runId, 'w2', stateOf(runId, 'stolen'), 60_000)).toBe(false);
      expect(await store.renew(runId, 'w2', 60_000)).toBe(false);
      expect(await store.renew(runId, 'w1', 60_000)).toBe(true);
      expect((await store.get(runId))!.state!.messages[0].content).toBe('first');
      expect(await store.finish(runId, 'w2', { status: 'error', error: 'x' })).toBeUndefined();
      expect(
        await store.finish(runId, 'w1', {
          status: 'done',
          state: stateOf(runId, 'end'),
          text: 'ok',
        }),
      ).toMatchObject({ runId, status: 'done', text: 'ok', pending: [] });
      const run = (await store.get(runId))!;
      expect(run).toMatchObject({ status: 'done', text: 'ok' });
      expect(run.leaseOwner).toBeUndefined();
      expect(await store.checkpoint(runId, 'w1', stateOf(runId), 60_000)).toBe(false);
    });

    test('keeps the last progress for the worker holding the lease only, and clears it at the end', async () => {
      const runId = newId();
      await store.create({ runId, input: 'hi', owner: 'w1', leaseMs: 60_000 });
      const message = 'copying \u001b[2J\u0000 \ud800 😀';
      const progress = {
        toolCallId: 'c1',
        toolName: 'copy',
        progress: 3,
        total: 10,
        message,
        at: 1,
      };
      expect(await store.progress(runId, 'w1', progress)).toBe(true);
      expect(await store.progress(runId, 'w2', { ...progress, progress: 9 })).toBe(false);
      expect((await store.get(runId))!.progress).toEqual(progress);
      const last = { toolCallId: 'c2', toolName: 'copy', progress: 0.5, at: 2 };
      expect(await store.progress(runId, 'w1', last)).toBe(true);
      expect((await store.get(runId))!.progress).toEqual(last);
      await store.finish(runId, 'w1', { status: 'done', state: stateOf(runId), text: 'ok' });
      expect((await store.get(runId))!.progress).toBeUndefined();
      expect(await store.progress(runId, 'w1', progress)).toBe(false);
      expect((await store.get(runId))!.progress).toBeUndefined();
    });

    test('hands the tokens out once and stores pending calls in order with their hashes only', async () => {
      const { runId, tokens } = await suspended(store, ['a', 'b']);
      const run = (await store.get(runId))!;
      expect(run.status).toBe('suspended');
      expect(run.pending.map((p) => [p.call.toolCallId, p.tokenHash, p.token])).toEqual([
        ['a', sha256(tokens[0]), undefined],
        ['b', sha256(tokens[1]), undefined],
      ]);
      expect(run.pending[0].call).toEqual(pendingCall('a'));
      const [listed] = (await store.list()).filter(
        (r) => !(r instanceof SessionError) && r.runId === runId,
      ) as StoredRun[];
      expect(listed.pending.map((p) => p.token)).toEqual([undefined, undefined]);
      expect(await store.decide(tokens[1], { approve: true }, {})).toMatchObject({
        run: { runId, status: 'suspended' },
      });
    });

    test('records each decision once, with the audit trail, and is ready after the last', async () => {
      const { runId, tokens } = await suspended(store, ['a', 'b']);
      expect(
        await store.decide(tokens[0], { approve: true }, { by: 'ana', note: 'looks fine' }),
      ).toMatchObject({ run: { runId, status: 'suspended' }, claimed: false });
      const again = await code(store.decide(tokens[0], { approve: true }, { by: 'bob' }));
      expect(again.code).toBe('ALREADY_DECIDED');
      expect(again.message).toMatch(
        /tool call "a" of run ".+" was already decided \(approve by ana/,
      );
      expect(
        await code(store.decide({ runId, toolCallId: 'a' }, { reject: 'no' }, {})),
      ).toMatchObject({ code: 'ALREADY_DECIDED' });
      expect(
        await store.decide({ runId, toolCallId: 'b' }, { reject: 'too risky' }, { by: 'bob' }),
      ).toMatchObject({ run: { runId, status: 'ready' }, claimed: false });
      const run = (await store.get(runId))!;
      expect(run.status).toBe('ready');
      expect(run.pending.map((p) => p.decision)).toEqual([
        { approve: true },
        { reject: 'too risky' },
      ]);
      const audit = await store.audit(runId);
      expect(audit).toMatchObject([
        {
          action: 'approve',
          toolCallId: 'a',
          toolName: 'remove_file',
          by: 'ana',
          note: 'looks fine',
        },
        { action: 'reject', toolCallId: 'b', by: 'bob', note: 'too risky' },
      ]);
      expect(Date.parse(audit[0].at)).toBeGreaterThan(Date.now() - 60_000);
    });

    test('refuses unknown refs, malformed refs and decisions of the wrong kind', async () => {
      const { runId, tokens } = await suspended(store, ['a']);
      expect(await code(store.decide('x'.repeat(32), { approve: true }, {}))).toMatchObject({
        code: 'NOT_FOUND',
      });
      expect(await code(store.decide('short', { approve: true }, {}))).toMatchObject({
        code: 'NOT_FOUND',
      });
      expect(
        await code(store.decide({ runId, toolCallId: 'zz' }, { approve: true }, {})),
      ).toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringContaining('"zz"'),
      });
      expect(await code(store.decide({ runId } as never, { approve: true }, {}))).toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      expect(await code(store.decide(tokens[0], { resume: 1 }, {}))).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('waits for an approval'),
      });
      const suspension = await suspended(store, ['s'], 'suspend');
      expect(await code(store.decide(suspension.tokens[0], { approve: true }, {}))).toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      expect(
        await store.decide(suspension.tokens[0], { resume: { answer: 42 } }, {}),
      ).toMatchObject({ run: { status: 'ready' } });
      expect((await store.get(runId))!.pending[0].decision).toBeUndefined();
    });

    test('leases the run to the decider of its last call when asked, in the same transaction', async () => {
      const { runId, tokens } = await suspended(store, ['a', 'b']);
      const claim = { owner: 'decider', leaseMs: 60_000 };
      expect(await store.decide(tokens[0], { approve: true }, {}, claim)).toMatchObject({
        run: { status: 'suspended' },
        claimed: false,
      });
      const { run, claimed } = await store.decide(tokens[1], { approve: true }, {}, claim);
      expect(claimed).toBe(true);
      expect(run).toMatchObject({
        runId,
        status: 'running',
        leaseOwner: 'decider',
        state: stateOf(runId),
      });
      expect(run.pending.map((p) => p.decision)).toEqual([{ approve: true }, { approve: true }]);
      expect(await store.get(runId)).toMatchObject({ status: 'running', leaseOwner: 'decider' });
      expect(await store.claim(runId, 'other', 60_000)).toBeUndefined();
    });

    test('lets exactly one of several racing decisions on one call win', async () => {
      const { tokens } = await suspended(store, ['a']);
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          store.decide(tokens[0], i % 2 ? { approve: true } : { reject: 'no' }, { by: `u${i}` }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'ALREADY_DECIDED' });
      }
    });

    test('leases a ready run to one worker at a time, and takes over an expired lease', async () => {
      const { runId, tokens } = await suspended(store, ['a']);
      expect(await store.claim(runId, 'w2', 60_000)).toBeUndefined(); // still suspended
      await store.decide(tokens[0], { approve: true }, {});
      const claims = await Promise.all([
        store.claim(runId, 'w2', 60_000),
        store.claim(runId, 'w3', 60_000),
      ]);
      const winners = claims.filter(Boolean) as StoredRun[];
      expect(winners).toHaveLength(1);
      expect(winners[0]).toMatchObject({ status: 'running', state: stateOf(runId) });
      expect(winners[0].pending[0].decision).toEqual({ approve: true });
      const holder = winners[0].leaseOwner!;
      expect(await store.claim(runId, 'w4', 60_000)).toBeUndefined();
      // The holder "dies" with a short lease; once it expires another worker takes over.
      expect(await store.renew(runId, holder, 30)).toBe(true);
      let taken: StoredRun | undefined;
      for (let i = 0; i < 200 && !taken; i++) {
        await sleep(10);
        taken = await store.claim(runId, 'w4', 60_000);
      }
      expect(taken).toMatchObject({ status: 'running', leaseOwner: 'w4' });
      expect(await store.checkpoint(runId, holder, stateOf(runId), 60_000)).toBe(false);
    });

    test('claims the oldest runnable run next, skipping excluded and held ones', async () => {
      const first = await suspended(store, ['a']);
      const second = await suspended(store, ['a']);
      // The second run became ready first, so it is older in the queue.
      // (Within the same millisecond too: the store's revisions order them.)
      await store.decide(second.tokens[0], { approve: true }, {});
      await store.decide(first.tokens[0], { approve: true }, {});
      const excluded = await store.claimNext('w9', 60_000, [second.runId]);
      const seen = excluded.run ? [excluded.run.runId] : [];
      for (;;) {
        const { run, corrupt } = await store.claimNext('w9', 60_000);
        expect(corrupt).toEqual([]);
        if (!run) break;
        seen.push(run.runId);
      }
      expect(seen).toContain(first.runId);
      expect(seen.indexOf(second.runId)).toBeLessThan(seen.indexOf(first.runId));
      const { runId: held } = await suspended(store, ['a']);
      expect(await store.claimNext('w9', 60_000)).toEqual({ corrupt: [] });
      expect((await store.get(held))!.status).toBe('suspended');
    });

    test('keeps the state of a failed run and retries it only when asked', async () => {
      const runId = newId();
      await store.create({ runId, input: 'hi', owner: 'w1', leaseMs: 60_000 });
      await store.checkpoint(runId, 'w1', stateOf(runId, 'kept'), 60_000);
      await store.finish(runId, 'w1', { status: 'error', error: 'model down' });
      expect(await store.get(runId)).toMatchObject({ status: 'error', error: 'model down' });
      expect(await store.claim(runId, 'w2', 60_000)).toBeUndefined();
      const retried = await store.claim(runId, 'w2', 60_000, { retryErrors: true });
      expect(retried!.state!.messages[0].content).toBe('kept');
    });

    test('gives a call suspended again a new token; the old one stays used', async () => {
      const { runId, tokens } = await suspended(store, ['a'], 'suspend');
      await store.decide(tokens[0], { resume: 'first answer' }, {});
      await store.claim(runId, 'w2', 60_000);
      const again = { call: pendingCall('a', 'suspend'), token: token(999_000 + seq) };
      await store.finish(runId, 'w2', {
        status: 'suspended',
        state: stateOf(runId),
        pending: [again],
      });
      const run = (await store.get(runId))!;
      expect(run.pending).toEqual([{ call: again.call, tokenHash: sha256(again.token) }]);
      expect(await code(store.decide(tokens[0], { resume: 'x' }, {}))).toMatchObject({
        code: 'ALREADY_DECIDED',
      });
      expect(
        await store.decide({ runId, toolCallId: 'a' }, { resume: 'second' }, {}),
      ).toMatchObject({ run: { runId, status: 'ready' } });
    });

    test('cancels unfinished runs only; a cancelled run takes no decision', async () => {
      const { runId, tokens } = await suspended(store, ['a']);
      await store.cancel(runId, { by: 'ops', note: 'customer left' });
      expect((await store.get(runId))!.status).toBe('cancelled');
      expect(await code(store.decide(tokens[0], { approve: true }, {}))).toMatchObject({
        code: 'NOT_PENDING',
        message: expect.stringContaining('cancelled'),
      });
      expect(await code(store.cancel(runId, {}))).toMatchObject({ code: 'NOT_PENDING' });
      expect(await code(store.cancel('nope', {}))).toMatchObject({ code: 'NOT_FOUND' });
      expect(await store.audit(runId)).toMatchObject([
        { action: 'cancel', by: 'ops', note: 'customer left' },
      ]);
    });

    test('lists runs by status and thread, oldest first', async () => {
      const thread = `thread_${newId()}`;
      const a = newId();
      const b = newId();
      await store.create({ runId: a, threadId: thread, input: 'a', owner: 'w1', leaseMs: 60_000 });
      // A thread runs one run at a time (decision 148).
      expect(
        await code(
          store.create({ runId: b, threadId: thread, input: 'b', owner: 'w1', leaseMs: 60_000 }),
        ),
      ).toMatchObject({ code: 'THREAD_BUSY', runId: a });
      await store.finish(a, 'w1', { status: 'done', state: stateOf(a), text: 'ok' });
      await store.create({ runId: b, threadId: thread, input: 'b', owner: 'w1', leaseMs: 60_000 });
      expect(((await store.list({ threadId: thread })) as StoredRun[]).map((r) => r.runId)).toEqual(
        [a, b],
      );
      const done = (await store.list({ threadId: thread, status: 'done' })) as StoredRun[];
      expect(done.map((r) => r.runId)).toEqual([a]);
      expect((await store.list()).length).toBeGreaterThanOrEqual(2);
    });

    test('refuses input and states that are not JSON', async () => {
      const runId = newId();
      expect(
        await code(
          store.create({
            runId,
            input: [{ role: 'user', content: 10n }] as never,
            owner: 'w',
            leaseMs: 1000,
          }),
        ),
      ).toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      expect(
        await code(store.create({ runId, input: 'x', owner: 'w', leaseMs: -1 })),
      ).toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    });

    if (!options.rawAccess) return;
    describe('with direct database access', () => {
      const sqlTest = test;

      sqlTest('records its migrations once, and refuses a newer schema', async () => {
        await store.get('anything');
        const rows = await subject!.sql!(
          'SELECT version, name FROM fino_migrations ORDER BY version',
        );
        const versions = MIGRATIONS.map((m) => m.version);
        expect(rows.map((r) => Number(r.version))).toEqual(versions);
        const other = subject!.reopen!();
        await other.get('anything');
        expect(await subject!.sql!('SELECT version FROM fino_migrations')).toHaveLength(
          versions.length,
        );
        await other.close();
        await subject!.sql!(
          `INSERT INTO fino_migrations (version, name, applied_at) VALUES (99, 'future', 0)`,
        );
        try {
          const newer = subject!.reopen!();
          expect(await code(newer.get('anything'))).toMatchObject({
            code: 'SCHEMA_TOO_NEW',
            message: expect.stringContaining('99'),
          });
          await newer.close();
        } finally {
          await subject!.sql!('DELETE FROM fino_migrations WHERE version = 99');
        }
      });

      sqlTest(
        'reports corrupt and unknown-version rows by run id, leaves them untouched, and keeps working',
        async () => {
          const bad = await suspended(store, ['a']);
          const future = await suspended(store, ['a']);
          const good = await suspended(store, ['a']);
          const waiting = await suspended(store, ['a']);
          for (const run of [bad, future, good])
            await store.decide(run.tokens[0], { approve: true }, {});
          await subject!.sql!(
            `UPDATE fino_runs SET state = '{"version":1, broken' WHERE run_id IN ('${bad.runId}', '${waiting.runId}')`,
          );
          await subject!.sql!(
            `UPDATE fino_runs SET state = '{"version":99,"runId":"${future.runId}"}' WHERE run_id = '${future.runId}'`,
          );
          const snapshot = () =>
            subject!.sql!(
              `SELECT * FROM fino_runs WHERE run_id IN ('${bad.runId}', '${future.runId}', '${waiting.runId}') ORDER BY run_id`,
            );
          const before = await snapshot();

          expect(await code(store.get(bad.runId))).toMatchObject({
            code: 'CORRUPT_RUN',
            runId: bad.runId,
            message: expect.stringMatching(
              new RegExp(`run "${bad.runId}" cannot be read: state is not valid JSON`),
            ),
          });
          expect(await code(store.get(future.runId))).toMatchObject({
            code: 'CORRUPT_RUN',
            message: expect.stringContaining('unknown state version 99'),
          });
          // An unreadable run takes no decision…
          expect(await code(store.decide(waiting.tokens[0], { approve: true }, {}))).toMatchObject({
            code: 'CORRUPT_RUN',
            runId: waiting.runId,
          });
          const listed = await store.list();
          const errors = listed.filter((r) => r instanceof SessionError) as SessionError[];
          expect(errors.map((e) => e.runId).sort()).toEqual(
            [bad.runId, future.runId, waiting.runId].sort(),
          );
          // …and no worker picks one up: they are reported and skipped.
          const claimed: string[] = [];
          const reported = new Set<string>();
          for (;;) {
            const { run, corrupt } = await store.claimNext('w9', 60_000, [...reported]);
            for (const e of corrupt) reported.add(e.runId!);
            if (!run) break;
            claimed.push(run.runId);
          }
          expect(claimed).toContain(good.runId);
          expect(claimed).not.toContain(bad.runId);
          expect([...reported]).toEqual(expect.arrayContaining([bad.runId, future.runId]));
          expect(await code(store.claim(bad.runId, 'w9', 60_000))).toMatchObject({
            code: 'CORRUPT_RUN',
          });
          const after = await snapshot();
          expect(after).toEqual(before);
          expect(
            await subject!.sql!(
              `SELECT decision FROM fino_pending WHERE run_id = '${waiting.runId}'`,
            ),
          ).toEqual([{ decision: null }]);
        },
      );

      sqlTest('keeps no token in the database, only its hash', async () => {
        const { runId, tokens } = await suspended(store, ['a']);
        const rows = await subject!.sql!(`SELECT * FROM fino_pending WHERE run_id = '${runId}'`);
        expect(rows).toEqual([expect.objectContaining({ token_hash: sha256(tokens[0]) })]);
        expect(JSON.stringify(rows)).not.toContain(tokens[0]);
      });

      sqlTest('reads a stored progress it cannot read as none, and the run as usual', async () => {
        for (const bad of ['{broken', '{"toolCallId":"c1"}', '[]', 'null']) {
          const runId = newId();
          await store.create({ runId, input: 'hi', owner: 'w1', leaseMs: 60_000 });
          await subject!.sql!(`UPDATE fino_runs SET progress = '${bad}' WHERE run_id = '${runId}'`);
          const run = (await store.get(runId))!;
          expect(run).toMatchObject({ runId, status: 'running' });
          expect(run.progress).toBeUndefined();
        }
      });

      sqlTest('reports an unknown record format', async () => {
        const { runId } = await suspended(store, ['a']);
        await subject!.sql!(`UPDATE fino_runs SET format = 7 WHERE run_id = '${runId}'`);
        expect(await code(store.get(runId))).toMatchObject({
          code: 'CORRUPT_RUN',
          runId,
          message: expect.stringContaining('unknown record format 7'),
        });
      });
    });
  });
}

/**
 * A database as fino wrote it before decision 062 (schema version 1, tokens in plain
 * text), created through `sql`; `open` then opens a store on it. Checks that the store
 * migrates it: the plain token is replaced by its hash in place, and still decides the call.
 */
export async function checkTokenMigration(
  dialect: Dialect,
  sql: (query: string, params?: unknown[]) => Promise<unknown>,
  open: () => Store,
  rows: (query: string) => Promise<Record<string, unknown>[]>,
): Promise<void> {
  const t = (name: string) => `fino_${name}`;
  for (const statement of MIGRATIONS[0].sql(t, dialect).split(';')) {
    if (statement.trim() !== '') await sql(statement);
  }
  await sql(versionsTableSql(t('migrations')));
  await sql(`INSERT INTO fino_migrations (version, name, applied_at) VALUES (1, 'v1', 0)`);
  const plain = token(424_242);
  await sql(
    `INSERT INTO fino_runs (run_id, status, format, input, state, round, created_at, updated_at)
     VALUES ('old-run', 'suspended', 1, '"hi"', ?, 1, 0, 0)`,
    [JSON.stringify(stateOf('old-run'))],
  );
  await sql(
    `INSERT INTO fino_pending (token, run_id, round, tool_call_id, position, call) VALUES (?, 'old-run', 1, 'a', 0, ?)`,
    [plain, JSON.stringify(pendingCall('a'))],
  );
  const store = open();
  try {
    expect((await store.get('old-run'))!.pending).toEqual([
      { call: pendingCall('a'), tokenHash: sha256(plain) },
    ]);
    expect(await rows('SELECT token_hash FROM fino_pending')).toEqual([
      { token_hash: sha256(plain) },
    ]);
    expect(await store.decide(plain, { approve: true }, { by: 'ana' })).toMatchObject({
      run: { runId: 'old-run', status: 'ready' },
    });
  } finally {
    await store.close();
  }
}
