/**
 * Hostile stream writes and reads, on SQLite and PostgreSQL: values that are not JSON
 * (bigint, cycles, functions, symbols, a throwing toJSON, a class instance), names a
 * database cannot keep or a listing cannot print, names an object's prototype holds, and
 * `from` offsets negative, fractional, huge or not numbers. Each write is refused with its
 * code naming the stream and what was wrong, the code may catch it and goes on, and the
 * stream holds only the chunks that were taken; each bad offset is refused when
 * `readStream` is called, before anything is read.
 */
import { describe, expect, it } from 'vitest';
import {
  type StreamChunk,
  type WorkflowError,
  worker,
  workflow,
  workflowRuns,
} from '../../src/workflow/index.ts';
import { eachWorkflowStore } from '../helpers/workflow-store.ts';

const cycle: Record<string, unknown> = {};
cycle.self = cycle;

/** Each hostile value, and the code and words its refusal gives. */
const values: Array<[string, () => unknown, string, RegExp]> = [
  ['bigint', () => 10n, 'NOT_JSON', /a chunk of stream "s" must be JSON .*bigint/],
  ['cycle', () => cycle, 'NOT_JSON', /refers back to itself \(a cycle\)/],
  ['function', () => () => 1, 'NOT_JSON', /function/],
  ['symbol', () => Symbol('s'), 'NOT_JSON', /symbol/],
  ['NaN', () => Number.NaN, 'NOT_JSON', /NaN|finite/],
  ['a Map', () => new Map([[1, 2]]), 'NOT_JSON', /Map/],
  [
    'a throwing toJSON',
    () => ({
      toJSON() {
        throw new Error('toJSON broke');
      },
    }),
    'NOT_JSON',
    /.+/,
  ],
  ['undefined', () => undefined, 'INVALID_ARGUMENT', /expected a JSON value, received undefined/],
];

const names: unknown[] = ['', 'a\u0000b', 'x\uD800', 'a\nb', '\u001b[2J', 'n'.repeat(201), 7, null];

const writer = workflow({
  id: 'hostile-writer',
  async run(ctx) {
    const refusals: string[] = [];
    const attempt = async (write: () => Promise<void>) => {
      try {
        await write();
        refusals.push('written');
      } catch (error) {
        const { code, message } = error as WorkflowError;
        refusals.push(`${code}: ${message}`);
      }
    };
    for (const [, value] of values) await attempt(() => ctx.writeStream('s', value()));
    for (const name of names) await attempt(() => ctx.writeStream(name as string, 'x'));
    for (const name of ['__proto__', 'constructor', 'toString']) {
      await attempt(() => ctx.writeStream(name, name));
    }
    await attempt(() => ctx.writeStream('s', 'fits'));
    await ctx.waitForSignal('again'); // the code replays: the same refusals, nothing written twice
    return refusals;
  },
});

const readAll = async (chunks: AsyncIterable<StreamChunk>) => {
  const out: StreamChunk[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
};

describe.each(eachWorkflowStore('hostile-streams'))('hostile streams (%s)', (_engine, open) => {
  it('refuses values that are not JSON and names a store cannot keep; keeps what it took, once', async ({
    skip,
  }) => {
    const store = (await open()) ?? skip();
    const { runId } = await writer.start(undefined, { store });
    await worker({ store, workflows: [writer] }).drain();
    await writer.signal({ store, runId, name: 'again' });
    await worker({ store, workflows: [writer] }).drain();
    const refusals = (await writer.result(runId, { store })) as string[];
    for (const [i, [what, , code, message]] of values.entries()) {
      expect(refusals[i], what).toMatch(new RegExp(`^${code}: `));
      expect(refusals[i], what).toMatch(message);
    }
    const nameRefusals = refusals.slice(values.length, values.length + names.length);
    for (const refusal of nameRefusals) {
      expect(refusal).toMatch(
        /^INVALID_ARGUMENT: ctx\.writeStream: name: expected 1 to 200 characters of text without control characters or lone surrogates, received /,
      );
    }
    expect(refusals.slice(values.length + names.length)).toEqual([
      'written',
      'written',
      'written',
      'written',
    ]);
    expect(await store.streamLength(runId, 's')).toEqual({ length: 1, closed: false });
    expect(await readAll(writer.readStream(runId, 's', { store }))).toEqual([
      { offset: 0, value: 'fits' },
    ]);
    expect(await readAll(writer.readStream(runId, '__proto__', { store }))).toEqual([
      { offset: 0, value: '__proto__' },
    ]);
  });

  it('refuses a bad offset when readStream is called, naming it', async ({ skip }) => {
    const store = (await open()) ?? skip();
    const { runId } = await writer.start(undefined, { store });
    for (const from of [-1, -(2 ** 60), 2 ** 53, 2 ** 1024, 0.5, Number.NaN, '1', 1n, {}]) {
      expect(() => workflowRuns(store).readStream(runId, 's', { from: from as number })).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: expect.stringContaining(
            `readStream: from: expected an offset, a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`,
          ),
        }),
      );
    }
    // -0 is offset 0; a waiting run's stream past its end waits, so stop it at once.
    const stop = new AbortController();
    stop.abort(new Error('enough'));
    await expect(
      readAll(workflowRuns(store).readStream(runId, 's', { from: -0, signal: stop.signal })),
    ).rejects.toThrow('enough');
  });
});
