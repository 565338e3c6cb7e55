/**
 * History rows changed behind the store's back, on SQLite and PostgreSQL: an unreadable
 * body, a value that is not JSON, an error that is not an error, a body of `null`. Each
 * ends the run as `error` with `CORRUPT_RUN` naming the run and the row (its id and
 * seq), visible in `get()` and the inbox, and counted in `drain().corrupt`.
 */
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { inbox, memoryStore, session } from '../../src/ai/session/index.ts';
import {
  postgresWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
  worker,
  workflow,
  workflowRuns,
} from '../../src/workflow/index.ts';
import { cli } from '../cli/io.ts';
import { freshSchema } from '../helpers/postgres.ts';
import { postgresForTests } from '../helpers/postgres-for-tests.ts';
import { openSqlite } from '../helpers/sqlite.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('workflow-tampered');
const postgres = postgresForTests();

/** A store and a way to overwrite one history row's body, as another process would. */
interface Backend {
  store: WorkflowStore;
  /** The SQLite file, for `fino workflows show`. */
  file?: string;
  tamper(runId: string, entryId: string, body: string): Promise<void>;
  /** Overwrites one column of a run row. */
  tamperRun(runId: string, column: string, value: string): Promise<void>;
}

const backends: Record<string, (name: string) => Promise<Backend | undefined>> = {
  async sqlite(name) {
    const file = join(dir, `${name}.db`);
    return {
      store: sqliteWorkflowStore(file),
      file,
      async tamper(runId, entryId, body) {
        const db = openSqlite(file);
        db.prepare(
          'UPDATE fino_workflow_history SET body = ? WHERE run_id = ? AND entry_id = ?',
        ).run(body, runId, entryId);
        db.close();
      },
      async tamperRun(runId, column, value) {
        const db = openSqlite(file);
        db.prepare(`UPDATE fino_workflow_runs SET ${column} = ? WHERE run_id = ?`).run(
          value,
          runId,
        );
        db.close();
      },
    };
  },
  async postgres() {
    const server = await postgres();
    if (!server) return undefined;
    const schema = await freshSchema(server.url);
    return {
      store: postgresWorkflowStore(server.url, { schema }),
      async tamper(runId, entryId, body) {
        const client = new pg.Client({ connectionString: server.url });
        await client.connect();
        await client.query(
          `UPDATE ${schema}.fino_workflow_history SET body = $1 WHERE run_id = $2 AND entry_id = $3`,
          [body, runId, entryId],
        );
        await client.end();
      },
      async tamperRun(runId, column, value) {
        const client = new pg.Client({ connectionString: server.url });
        await client.connect();
        await client.query(
          `UPDATE ${schema}.fino_workflow_runs SET ${column} = $1 WHERE run_id = $2`,
          [value, runId],
        );
        await client.end();
      },
    };
  },
};

const flow = workflow({
  id: 'tampered',
  async run(ctx) {
    const first = await ctx.step('first', () => ({ n: 1 }));
    await ctx.waitForSignal('go');
    return first;
  },
});

const tamperings: Array<[string, string, string]> = [
  ['an unreadable body', '{"kind":"step",', 'its body is not JSON'],
  [
    'a value that is not JSON',
    '{"kind":"step","state":"done","value":"{nope","startedAt":1}',
    'its value is not JSON',
  ],
  [
    'an error of 5',
    '{"kind":"step","state":"done","error":5,"startedAt":1}',
    'its error 5 is not { name, message, code? } of strings',
  ],
  ['a body of null', 'null', 'its body is null, not an object'],
];

describe.each(Object.keys(backends))('tampered history on %s', (backend) => {
  it.each(tamperings)(
    '%s: CORRUPT_RUN naming the run and row, in get(), drain() and the inbox',
    async (what, body, why) => {
      const made = await backends[backend](what.replaceAll(' ', '-'));
      if (!made) return; // no PostgreSQL here
      const { store, tamper, file } = made;
      try {
        const { runId } = await flow.start(undefined, { store });
        await worker({ store, workflows: [flow] }).drain();
        await tamper(runId, 'first', body);
        await flow.signal({ store, runId, name: 'go' });
        const errors: unknown[] = [];
        const report = await worker({
          store,
          workflows: [flow],
          onError: (error) => errors.push(error),
        }).drain();

        const message = `history entry "first" (seq 1) of workflow run "${runId}" cannot be read: ${why}`;
        expect(report.corrupt).toEqual([runId]);
        expect(report.runs[runId]).toBe('error');
        expect(errors).toEqual([expect.objectContaining({ code: 'CORRUPT_RUN', runId })]);
        const run = await flow.get(runId, { store });
        expect(run.status).toBe('error');
        expect(run.error).toMatchObject({
          code: 'CORRUPT_RUN',
          message: expect.stringContaining(message),
        });

        const handle = inbox({
          session: session({ store: memoryStore() }),
          workflows: workflowRuns(store),
        });
        const page = await handle(new Request(`http://127.0.0.1:9999/workflows/${runId}`));
        expect(page.status).toBe(200);
        const text = await page.text();
        expect(text).toContain('CORRUPT_RUN: history entry');
        expect(text).toContain('seq 1');
        // The history, as operators read it: refused naming the row, or the value left out and flagged.
        const history = await workflowRuns(store)
          .history(runId)
          .catch((error: Error & { code?: string }) => `${error.code}: ${error.message}`);
        const shown = file ? (await cli(['workflows', 'show', runId, '--db', file])).stdout : '';
        if (what === 'a value that is not JSON') {
          expect(history).toMatchObject([
            { id: 'first', corrupt: expect.stringContaining('the value is not JSON') },
            {},
          ]);
          if (file) expect(shown).toContain('step first done  unreadable: the value is not JSON');
        } else {
          expect(history).toContain(`CORRUPT_RUN: ${message}`);
          if (file) expect(shown).toContain(`  history unreadable: ${message}`);
        }
        // Nothing drives it again: the next drain has nothing to do.
        expect((await worker({ store, workflows: [flow] }).drain()).runs).toEqual({});
      } finally {
        await store.close();
      }
    },
  );
});

describe.each(Object.keys(backends))('a tampered run row on %s', (backend) => {
  it.each([
    ['status', 'bogus', 'unknown status "bogus"'],
    ['error', '{nope', 'cannot be read'],
  ])(
    'a run whose %s cannot be read is listed, flagged, beside the others',
    async (column, value, why) => {
      const made = await backends[backend](`run-${column}`);
      if (!made) return; // no PostgreSQL here
      const { store, tamperRun, file } = made;
      try {
        const good = await flow.start(undefined, { store });
        const bad = await flow.start(undefined, { store });
        await tamperRun(bad.runId, column, value);

        const runs = await flow.list({ store });
        expect(runs.map((run) => run.runId).sort()).toEqual([good.runId, bad.runId].sort());
        const listed = runs.find((run) => run.runId === bad.runId)!;
        expect(listed.corrupt).toContain(`stored workflow run "${bad.runId}" cannot be read`);
        expect(listed.corrupt).toContain(why);
        expect(runs.find((run) => run.runId === good.runId)?.corrupt).toBeUndefined();
        // get() of that run refuses it by name; the inbox's list still answers.
        await expect(flow.get(bad.runId, { store })).rejects.toMatchObject({ code: 'CORRUPT_RUN' });
        const handle = inbox({
          session: session({ store: memoryStore() }),
          workflows: workflowRuns(store),
        });
        const page = await handle(new Request('http://127.0.0.1:9999/?status=all'));
        expect(page.status).toBe(200);
        if (file) expect((await cli(['workflows', 'list', '--db', file])).code).toBe(0);
      } finally {
        await store.close();
      }
    },
  );
});
