/**
 * Sessions on PostgreSQL through database faults: the server restarted as a crash does
 * (`pg_ctl restart -m immediate`), backends killed with `pg_terminate_backend`, the
 * server down for a while. Issue 24, F1 and F2: no process dies, nothing is lost, a run
 * goes on once the database is back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import {
  type PgPoolLike,
  postgresStore,
  SessionError,
  type SessionRun,
  session,
} from '../../../src/ai/session/index.ts';
import { sqlStore } from '../../../src/ai/session/store/sql-store.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { isTransientPostgres, postgresDriver } from '../../../src/internal/sql/index.ts';
import { freshSchema, type PostgresServer, terminateBackends } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { worker } from './child.ts';
import { readLog, shopAgent } from './fixtures/shop-agent.ts';

const dir = tempDir('failover');
// This file's own server, durable (the tests' default gives up commits for speed, and a
// crash then loses them): its tests crash and restart it.
const postgres = postgresForTests({ durable: true });

/** Child processes start slowly on a loaded machine: generous, never a race against the clock. */
const PROCESS_TIMEOUT_MS = 180_000;

type Faults = NonNullable<PostgresServer['faults']>;
const pgIt = (title: string, body: (url: string, faults: Faults) => Promise<void>) =>
  it(
    title,
    async (ctx) => {
      const server = await postgres();
      if (!server?.faults) return ctx.skip(); // no server, or one this test may not restart
      await body(server.url, server.faults);
    },
    PROCESS_TIMEOUT_MS,
  );

/**
 * Resolves once `condition()` holds, checking again after each check that answers false
 * or fails with a database error (the database may be restarting); any other error ends it.
 */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (;;) {
    const held = await condition().catch((error: unknown) => {
      if (error instanceof SessionError || isTransientPostgres(error)) return false;
      throw error;
    });
    if (held) return;
    await sleep(20);
  }
}

/** A pg.Pool that reports its first failed query or connection. */
function watchedPool(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  let report!: (error: unknown) => void;
  const firstFailure = new Promise<unknown>((resolve) => {
    report = resolve;
  });
  const failing = <T>(promise: Promise<T>) =>
    promise.catch((error: unknown) => {
      report(error);
      throw error;
    });
  const watched: PgPoolLike = {
    query: (text, values) => failing(pool.query(text, values)),
    connect: () => failing(pool.connect()),
    end: () => pool.end(),
    on: (event, listener) => pool.on(event, listener),
  };
  return { pool: watched, firstFailure };
}

/** An agent whose one tool calls `act` (a database fault) and then lets the run finish. */
function faultAgent(act: () => Promise<void>) {
  const calls: string[] = [];
  const fault = tool({
    name: 'fault',
    description: 'Injects a database fault.',
    execute: async () => {
      calls.push('fault');
      await act();
      return 'fault injected';
    },
  });
  // Answers from the conversation, so a run resumed by another worker gets the same turn.
  const turn = ({ messages }: { messages: readonly unknown[] }) =>
    messages.length > 1 // the tool's result is in
      ? 'Done.'
      : { toolCalls: [{ id: 'f1', name: 'fault', args: {} }] };
  const model = scriptedModel([turn, turn]);
  return { agent: agent({ model, tools: [fault] }), calls };
}

type Suspended = Extract<SessionRun, { status: 'suspended' }>;

describe('sessions through PostgreSQL faults', () => {
  pgIt(
    'worker processes approving and draining live through restarts and killed backends: none dies, every run finishes, each approved call runs once',
    async (url, faults) => {
      const schema = await freshSchema(url);
      const log = join(dir, 'failover.jsonl');
      const store = postgresStore(url, { schema });
      const runs = session({ store, agent: shopAgent('order', log) });
      const M = 12;
      const tokens: string[] = [];
      try {
        for (let i = 0; i < M; i++) {
          const run = (await runs.start(`Ship ${i}`, { runId: `run-${i}` })) as Suspended;
          tokens.push(run.pending[0].token!);
        }
      } finally {
        await store.close();
      }
      const barrier = join(dir, 'go');
      const stop = join(dir, 'stop');
      const command = { op: 'serve', db: url, schema, log, plan: 'order', barrier, stop };
      const workers = [0, 1, 2].map((w) =>
        worker({ ...command, tokens: tokens.filter((_, i) => i % 3 === w) }),
      );
      let died: unknown;
      for (const w of workers) w.done.catch((error: unknown) => (died ??= error));
      /** Fails the test at once when a worker process died, instead of waiting for what it will never do. */
      const alive = () => {
        if (died) throw died;
      };
      await Promise.all(workers.map((w) => w.ready)); // each connected, its pool warm
      writeFileSync(barrier, '');
      // Approvals and drains are under way: crash the server under them, then kill their
      // connections again each time they are back.
      await faults.restart();
      for (let round = 0; round < 3; round++) {
        await until(async () => {
          alive();
          return (await terminateBackends(url)) >= 3;
        });
      }
      await faults.restart();
      await until(async () => {
        alive();
        const check = postgresStore(url, { schema });
        try {
          return (await check.list({ status: 'done' })).length === M;
        } finally {
          await check.close();
        }
      });
      writeFileSync(stop, '');
      const answers = await Promise.all(workers.map((w) => w.done));

      // No process died: each answered, and nothing failed but, at worst, a commit cut
      // mid-way (reported as such, STORE_UNAVAILABLE; the run went on elsewhere).
      for (const answer of answers) {
        expect(answer).toMatchObject({ ok: true });
        const { failures } = answer.result as { failures: string[] };
        for (const failure of failures) {
          expect(failure).toMatch(/^STORE_UNAVAILABLE: .*while committing/);
        }
      }
      // Each approved call ran once.
      const ships = readLog(log).filter((e) => e.tool === 'ship');
      expect(ships.map((e) => e.key).sort()).toEqual(
        Array.from({ length: M }, (_, i) => `run-${i}:ship_1`).sort(),
      );
    },
  );

  pgIt(
    'a run whose checkpoint meets a dropped connection is retried, and finishes once the database is back',
    async (url, faults) => {
      const schema = await freshSchema(url);
      const { pool, firstFailure } = watchedPool(url);
      const store = postgresStore(pool, { schema });
      const { agent: halting, calls } = faultAgent(() => faults.halt());
      try {
        const running = session({ store, agent: halting }).start('go', { runId: 'run-halt' });
        // The tool stopped the server; the checkpoint after it fails to connect…
        expect(isTransientPostgres(await firstFailure)).toBe(true);
        await faults.resume(); // …and succeeds once the server is back.
        expect(await running).toMatchObject({ runId: 'run-halt', status: 'done', text: 'Done.' });
        expect(calls).toEqual(['fault']);
      } finally {
        await faults.resume().catch(() => {}); // already up unless the test failed early
        await store.close();
        await pool.end();
      }
    },
  );

  pgIt(
    'when the database stays down, the run fails with STORE_UNAVAILABLE, stays claimable from its last checkpoint, and another worker finishes it',
    async (url, faults) => {
      const schema = await freshSchema(url);
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      pool.on('error', () => {});
      const impatient = sqlStore(
        postgresDriver(pool, {
          schema,
          store: 'postgresStore()',
          database: 'the session database',
          retry: { budgetMs: 200, firstDelayMs: 20 },
        }),
      );
      const { agent: halting, calls } = faultAgent(() => faults.halt());
      const leaseMs = 500;
      try {
        const error = await session({ store: impatient, agent: halting, leaseMs })
          .start('go', { runId: 'run-down' })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SessionError);
        expect(error).toMatchObject({
          code: 'STORE_UNAVAILABLE',
          message: expect.stringMatching(
            /^the session database is unavailable: connect ECONNREFUSED/,
          ),
          cause: { code: 'ECONNREFUSED' },
        });
        await faults.resume();
        // Not ended as `error`: still running under the dead worker's lease, then claimable.
        const store = postgresStore(url, { schema });
        try {
          expect(await store.get('run-down')).toMatchObject({ status: 'running' });
          const second = faultAgent(async () => {});
          const other = session({ store, agent: second.agent });
          let finished: SessionRun | undefined;
          await until(async () => {
            const { runs } = await other.drain();
            finished = runs.find((r) => r.runId === 'run-down');
            return finished !== undefined;
          });
          expect(finished).toMatchObject({ status: 'done', text: 'Done.' });
          // The tool's outcome never reached the database: the other worker resumed from the
          // model turn before it, and ran the tool again (with the same idempotency key).
          expect(calls).toEqual(['fault']);
          expect(second.calls).toEqual(['fault']);
        } finally {
          await store.close();
        }
      } finally {
        await faults.resume().catch(() => {});
        await impatient.close();
        await pool.end();
      }
    },
  );
});
