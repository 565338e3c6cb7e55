/**
 * Session writes whose commit meets a dropped connection (its outcome unknown) on a real
 * PostgreSQL server: a start's insert, a suspension, a run's end. Whether the commit landed
 * or not, the caller gets its run as if nothing had failed — `start()` never answers
 * `RUN_EXISTS` for its own run — and each approved call runs once (issue 32; decision 170).
 */
import { describe, expect, it } from 'vitest';
import { agent } from '../../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../../src/ai/model/index.ts';
import { postgresStore, type SessionRun, session } from '../../../../src/ai/session/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { type CommitFault, commitFaultPool } from '../../../helpers/commit-fault-pool.ts';
import { freshSchema } from '../../../helpers/postgres.ts';
import { postgresForTests } from '../../../helpers/postgres-for-tests.ts';

const postgres = postgresForTests();

/** The writes to fail, each the first time it is met. */
const WRITES: Record<string, RegExp> = {
  insert: /^\s*INSERT INTO \S*fino_runs/,
  suspend: /^\s*INSERT INTO \S*fino_pending/,
  finish: /SET status = \$1/, // placeholders as the driver sends them
};

/** Fails each of {@link WRITES} at its first commit, once `armed`. */
function firstOfEach() {
  const failed = new Set<string>();
  const state = { armed: false };
  const fault = (statements: readonly string[]) => {
    if (!state.armed) return false;
    for (const [name, pattern] of Object.entries(WRITES)) {
      if (failed.has(name) || !statements.some((s) => pattern.test(s))) continue;
      failed.add(name);
      return true;
    }
    return false;
  };
  return { fault, failed, state };
}

/** An agent whose one tool needs an approval; `shipped` counts its runs. */
function shipAgent() {
  const shipped: string[] = [];
  const ship = tool({
    name: 'ship',
    description: 'Ships the order.',
    requiresApproval: true,
    execute: async (_args, { runId }) => {
      shipped.push(String(runId));
      return 'shipped';
    },
  });
  // Answers from the conversation: the tool's result in, the run is done.
  const turn = ({ messages }: { messages: readonly unknown[] }) =>
    messages.length > 1 ? 'Done.' : { toolCalls: [{ id: 'c1', name: 'ship', args: {} }] };
  return {
    agent: agent({ model: scriptedModel([turn, turn, turn, turn]), tools: [ship] }),
    shipped,
  };
}

type Suspended = Extract<SessionRun, { status: 'suspended' }>;

describe('a commit whose outcome is unknown (sessions)', () => {
  for (const outcome of ['landed', 'lost'] as CommitFault[]) {
    for (const threadId of [undefined, 'thread-1']) {
      it(`when the commit ${outcome}${threadId ? ' (on a thread)' : ''}: start, suspension and end go on, each call runs once`, async (ctx) => {
        const server = await postgres();
        if (!server) return ctx.skip();
        const schema = await freshSchema(server.url);
        const plan = firstOfEach();
        const faulty = commitFaultPool(server.url, outcome, plan.fault);
        const store = postgresStore(faulty.pool, { schema });
        const { agent: shipper, shipped } = shipAgent();
        const runs = session({ store, agent: shipper });
        try {
          await store.get('warm-up'); // migrated before the faults
          plan.state.armed = true;
          const started = (await runs.start('Ship it', { runId: 'r1', threadId })) as Suspended;
          expect(started).toMatchObject({ runId: 'r1', status: 'suspended' });
          expect(started.pending[0].token).toEqual(expect.any(String));
          const done = await runs.approve(started.pending[0].token!, { by: 'test' });
          expect(done).toMatchObject({ runId: 'r1', status: 'done', text: 'Done.' });
          expect(shipped).toEqual(['r1']);
          expect([...plan.failed].sort()).toEqual(['finish', 'insert', 'suspend']);
          // Another start of the same id is not this one: RUN_EXISTS as ever.
          await expect(runs.start('Again', { runId: 'r1' })).rejects.toMatchObject({
            code: 'RUN_EXISTS',
          });
        } finally {
          await store.close();
          await faulty.end();
        }
      });
    }
  }
});
