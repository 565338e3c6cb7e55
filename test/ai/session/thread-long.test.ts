/**
 * A 300-turn thread under a 4,000-token window, at the session level: 100 starts on one
 * thread of a SQLite file (and of PostgreSQL, when a server is available), each answered
 * after two tool calls with sizeable results (300 model requests), with the agent's
 * `context` clearing old tool results, summarising, and trimming. Every request the
 * model received fits and pairs every tool call with its result; the thread keeps every
 * message in full and sums the runs' usage; a late start reads a bounded window.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agent, clearToolResults, summarize, trimOldest } from '../../../src/ai/agent/index.ts';
import {
  addCosts,
  estimateTokens,
  type GenerateRequest,
  type ModelMessage,
  scriptedModel,
  usageCost,
} from '../../../src/ai/model/index.ts';
import { session } from '../../../src/ai/session/index.ts';
import { SESSION_SCHEMA } from '../../../src/ai/session/store/migrations.ts';
import { sqlStore } from '../../../src/ai/session/store/sql-store.ts';
import type { ThreadMessage } from '../../../src/ai/session/types.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { postgresDriver, type SqlDriver, sqliteDriver } from '../../../src/internal/sql/index.ts';
import { v } from '../../../src/validate/index.ts';
import { countingDriver } from '../../helpers/counting-driver.ts';
import { freshSchema } from '../../helpers/postgres.ts';
import { postgresForTests } from '../../helpers/postgres-for-tests.ts';
import { openSqlite } from '../../helpers/sqlite.ts';
import { tempDir } from '../../helpers/temp-dir.ts';
import { expectPaired } from '../agent/context/requests.ts';

const RUNS = 100;
const CALLS_PER_RUN = 2;
/** Model requests per run: one per tool call, then the answer. */
const REQUESTS_PER_RUN = CALLS_PER_RUN + 1;
/** Messages per run: the question, each call and its result, the answer. */
const MESSAGES_PER_RUN = 2 + 2 * CALLS_PER_RUN;
const WINDOW = 4_000;
const THREAD = 'customer-300';
// An offline stand-in for openai:gpt-4.1-mini (its limits and prices), billing what it is sent.
const MODEL_ID = 'openai:gpt-4.1-mini';

const dir = tempDir('thread-long');
const postgres = postgresForTests();

const question = (run: number) => `Question ${run}: where do records ${run * 10} and on stand?`;
const answer = (run: number) =>
  `Answer ${run}: ${'both records are filed and current. '.repeat(20)}`;
const callId = (run: number, call: number) => `r${run}c${call}`;
const record = (n: number) => `record ${n}: ${'field=value; '.repeat(80)}`;

const lookup = tool({
  name: 'lookup',
  description: 'Look a record up.',
  parameters: v.object({ n: v.number() }),
  execute: ({ n }: { n: number }) => record(n),
});

/** The messages run `run` adds to the thread, as the model and the tool produce them. */
function runMessages(run: number): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: question(run) }];
  for (let call = 0; call < CALLS_PER_RUN; call++) {
    const id = callId(run, call);
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'lookup', args: { n: run * 10 + call } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolCallId: id, content: record(run * 10 + call) }],
      },
    );
  }
  messages.push({ role: 'assistant', content: [{ type: 'text', text: answer(run) }] });
  return messages;
}

/** A user message's text when it is a question (not tool results). */
const questionText = (message: ModelMessage) =>
  message.role === 'user' && typeof message.content === 'string' ? message.content : undefined;

/** A driver for one engine's fresh database, and what else a check needs of it. */
interface Database {
  driver: SqlDriver;
  /** The thread's rows as the database holds them, read behind the store's back. */
  storedRows?(): number;
}
type Engine = { name: string; open(): Promise<Database | undefined> };
let files = 0;
const engines: Engine[] = [
  {
    name: 'sqlite file',
    async open() {
      const path = join(dir, `sessions-${files++}.db`);
      const driver = sqliteDriver(path, {
        busyTimeoutMs: 10_000,
        store: 'sqliteStore()',
        database: `the session database ${path}`,
      });
      const storedRows = () => {
        const db = openSqlite(path);
        try {
          const row = db
            .prepare('SELECT COUNT(*) AS n FROM fino_thread_messages WHERE thread_id = ?')
            .get(THREAD) as { n: number };
          return Number(row.n);
        } finally {
          db.close();
        }
      };
      return { driver, storedRows };
    },
  },
  {
    name: 'postgres',
    async open() {
      const server = await postgres();
      if (!server) return undefined;
      const schema = await freshSchema(server.url);
      const driver = postgresDriver(server.url, {
        schema,
        store: 'postgresStore()',
        database: SESSION_SCHEMA.database,
      });
      return { driver };
    },
  },
];

const CLEARED =
  'context: old tool results were sent as placeholders to fit context.maxTokens; read_result reads them back';
const SUMMARIZED =
  'context: older messages were replaced by a summary (state.context.summary) to fit context.maxTokens; the state keeps them';

/** How much of the thread a start loads, and which strategies that leaves to the agent. */
const windows = [
  {
    // The agent's budget: the start's window does most of the trimming; the results of
    // each run's tool calls are then cleared from its later requests.
    name: "the thread window at the agent's budget",
    threads: undefined,
    warnings: [CLEARED],
  },
  {
    // Three times the budget: old results are cleared, then older turns summarised (the
    // summary carried from run to run by the thread, which then loads from its position).
    name: 'a thread window three times the budget',
    threads: { maxTokens: 3 * WINDOW },
    warnings: [CLEARED, SUMMARIZED],
  },
];

for (const engine of engines) {
  describe.for(windows)(
    `a 300-turn thread under a 4k-token window (${engine.name}, $name)`,
    (setup) => {
      it('sends every request within the window, paired, with the question and the summary; the thread keeps everything and sums the cost', async (ctx) => {
        const database = await engine.open();
        if (!database) return ctx.skip();
        const counting = countingDriver(database.driver);
        const store = sqlStore(counting.driver);
        ctx.onTestFinished(() => store.close());

        const billed = (request: GenerateRequest) => ({
          inputTokens: estimateTokens(request, MODEL_ID),
          outputTokens: 40,
        });
        // The latest summary the summarizer wrote before each model request (undefined before the first).
        let latestSummary: string | undefined;
        const summaryAtRequest: (string | undefined)[] = [];
        const summaries: string[] = [];
        const summarizer = scriptedModel(
          Array.from({ length: 3 * RUNS }, (_, k) => (request: GenerateRequest) => {
            latestSummary = `Summary ${k}: the clerk looked records up for the customer, ${'filed and current; '.repeat(6).trim()}`;
            summaries.push(latestSummary);
            return { text: latestSummary, usage: billed(request) };
          }),
          { id: MODEL_ID },
        );
        const model = scriptedModel(
          Array.from({ length: RUNS }, (_, run) => [
            ...Array.from({ length: CALLS_PER_RUN }, (_, call) => (request: GenerateRequest) => {
              summaryAtRequest.push(latestSummary);
              return {
                toolCalls: [
                  { id: callId(run, call), name: 'lookup', args: { n: run * 10 + call } },
                ],
                usage: billed(request),
              };
            }),
            (request: GenerateRequest) => {
              summaryAtRequest.push(latestSummary);
              return { text: answer(run), usage: billed(request) };
            },
          ]).flat(),
          { id: MODEL_ID },
        );
        const runs = session({
          store,
          agent: agent({
            model,
            instructions: 'You are a records clerk.',
            tools: [lookup],
            stopWhen: [],
            context: {
              maxTokens: WINDOW,
              strategy: [
                clearToolResults({ keep: 4 }),
                summarize({ model: summarizer, keepLast: 8 }),
                trimOldest(),
              ],
            },
          }),
          ...(setup.threads && { threads: setup.threads }),
        });

        const runIds: string[] = [];
        /** Per start: the thread rows it read, and how many messages it loaded. */
        const reads: { rows: number; loaded: number }[] = [];
        for (let run = 0; run < RUNS; run++) {
          counting.reset();
          const result = await runs.start(question(run), { threadId: THREAD });
          const rows = counting.rows('thread_messages');
          expect(result.status, `run ${run}`).toBe('done');
          if (result.status !== 'done') return;
          expect(result.text).toBe(answer(run));
          runIds.push(result.runId);
          const loaded = (result.state?.messages.length ?? 0) - MESSAGES_PER_RUN;
          reads.push({ rows, loaded });
        }

        // 300 model requests, each within the window, paired, with its run's question.
        expect(model.requests).toHaveLength(RUNS * REQUESTS_PER_RUN);
        for (const [i, request] of model.requests.entries()) {
          const run = Math.floor(i / REQUESTS_PER_RUN);
          expect(estimateTokens(request, model), `request ${i}`).toBeLessThanOrEqual(WINDOW);
          expectPaired(request);
          const questions = request.messages.map(questionText).filter((q) => q !== undefined);
          expect(questions.at(-1), `request ${i}: its run's question is the latest`).toBe(
            question(run),
          );
          const summary = summaryAtRequest[i];
          if (summary === undefined) expect(request.system).toBe('You are a records clerk.');
          else expect(request.system, `request ${i}`).toContain(summary);
        }

        // Which strategies ran, exactly (each run's state keeps its warnings).
        const views = await Promise.all(runIds.map((runId) => runs.get(runId)));
        const warnings = new Set(
          views.flatMap((view) => view?.state?.warnings?.map((w) => w.message) ?? []),
        );
        expect([...warnings].sort()).toEqual([...setup.warnings].sort());
        if (setup.warnings.includes(SUMMARIZED)) {
          // Summarised again and again, each summary merged into the next, and every run
          // after the first summary started from the thread's latest one.
          expect(summarizer.requests.length).toBeGreaterThanOrEqual(5);
          for (const [k, request] of summarizer.requests.entries()) {
            if (k > 0) expect(JSON.stringify(request)).toContain(summaries[k - 1]);
          }
          const first = summaryAtRequest.findIndex((summary) => summary !== undefined);
          const withSummary = views.filter((view) => view?.state?.context?.summary).length;
          expect(withSummary).toBeGreaterThanOrEqual(RUNS - Math.floor(first / REQUESTS_PER_RUN));
        } else {
          expect(summarizer.requests).toHaveLength(0);
        }

        // The thread keeps every message, tool results in full, in order.
        const thread = await runs.thread(THREAD, { limit: 1_000 });
        const expected = Array.from({ length: RUNS }, (_, run) => runMessages(run)).flat();
        expect(thread?.length).toBe(RUNS * MESSAGES_PER_RUN);
        expect(thread?.messages.map((m: ThreadMessage) => m.message)).toEqual(expected);
        expect(thread?.messages.map((m) => m.position)).toEqual(expected.map((_, i) => i));
        expect(thread?.messages.map((m) => m.runId)).toEqual(
          runIds.flatMap((runId) => Array(MESSAGES_PER_RUN).fill(runId)),
        );
        if (database.storedRows) expect(database.storedRows()).toBe(RUNS * MESSAGES_PER_RUN);
        // The whole history would not have fit: the window did work.
        expect(estimateTokens({ messages: expected }, model)).toBeGreaterThan(15 * WINDOW);
        if (summaries.length > 0) {
          expect(thread?.summary).toEqual({ text: summaries.at(-1), through: expect.any(Number) });
        } else {
          expect(thread?.summary).toBeUndefined();
        }

        // Its usage sums the runs': every request billed, the cost exactly the runs' costs.
        const requests = [...model.requests, ...summarizer.requests];
        const inputTokens = requests.reduce((sum, r) => sum + billed(r).inputTokens, 0);
        expect(thread?.usage.inputTokens).toBe(inputTokens);
        expect(thread?.usage.outputTokens).toBe(40 * requests.length);
        const runCosts = views.map((view) => view?.state?.usage.cost ?? 'unknown');
        const summed = runCosts.reduce(addCosts, 0);
        expect(typeof summed).toBe('number');
        expect(thread?.usage.cost).toBe(summed);
        const billedCost = requests
          .map((r) => {
            const usage = billed(r);
            return usageCost(MODEL_ID, { ...usage, totalTokens: usage.inputTokens + 40 });
          })
          .reduce(addCosts, 0);
        expect(thread?.usage.cost).toBe(billedCost);

        // Every start loaded the newest messages that just cover the thread budget, and read
        // a bounded number of rows for them: token counts backwards in chunks, then the
        // messages (thread-window.test.ts's bound); the starts of the second half, on a
        // thread twice as long, read no more than those of the first.
        const budget = setup.threads?.maxTokens ?? WINDOW;
        const stored = thread!.messages.map((m) => m.tokens);
        for (const [run, { rows, loaded }] of reads.entries()) {
          const window = stored.slice(run * MESSAGES_PER_RUN - loaded, run * MESSAGES_PER_RUN);
          const tokens = window.reduce((sum, n) => sum + n, 0);
          expect(tokens - (window[0] ?? 0), `run ${run}`).toBeLessThan(budget);
          expect(rows, `run ${run}`).toBeLessThanOrEqual(3 * loaded + 32);
        }
        const most = (from: number, to: number) =>
          Math.max(...reads.slice(from, to).map((read) => read.rows));
        expect(reads.at(-1)!.loaded).toBeGreaterThan(0);
        expect(most(RUNS / 2, RUNS)).toBeLessThanOrEqual(most(0, RUNS / 2));
      }, 120_000);
    },
  );
}
