/**
 * Hostile queries and updates, on SQLite and PostgreSQL: names and update ids with control
 * characters, lone surrogates or 10 000 characters, arguments of 1 MB (taken) and 3 MB
 * (refused), arguments and results that are not JSON, handlers that throw what is not an
 * Error, an update to a finished run. Each refusal names what was wrong and what was
 * expected, queues nothing and records nothing; the run keeps answering and ends as it would.
 */
import { describe, expect, it } from 'vitest';
import { type WorkflowStore, worker, workflow } from '../../src/workflow/index.ts';
import { eachWorkflowStore } from '../helpers/workflow-store.ts';

const hostileObject = {
  get message(): string {
    throw new Error('a getter that throws');
  },
  toString(): string {
    throw new Error('a toString that throws');
  },
};

const cart = workflow({
  id: 'cart',
  async run(ctx) {
    const items: string[] = [];
    ctx.onQuery('items', () => [...items]);
    ctx.onQuery('size', (text: string) => text.length);
    ctx.onQuery('bigint', () => 10n);
    for (const [name, thrown] of [
      ['string', 'a string'],
      ['null', null],
      ['undefined', undefined],
      ['symbol', Symbol('s')],
      ['hostile', hostileObject],
    ] as const) {
      ctx.onQuery(`throws-${name}`, () => {
        throw thrown;
      });
      ctx.onUpdate(`throws-${name}`, () => {
        throw thrown;
      });
    }
    ctx.onUpdate('add', (item: string) => items.push(item.slice(0, 20)));
    await ctx.waitForSignal('checkout');
    return items;
  },
});

const hostileNames: Array<[string, unknown]> = [
  ['a NUL', 'a\u0000b'],
  ['a lone surrogate', 'x\uD800'],
  ['a newline', 'a\nb'],
  ['an escape code', '\u001b[2J'],
  ['10 000 characters', 'n'.repeat(10_000)],
  ['empty', ''],
  ['a number', 42],
  ['null', null],
];

describe.each(eachWorkflowStore('hostile-requests'))(
  'hostile queries and updates (%s)',
  (_engine, open) => {
    /** A store with a parked run of `cart` and a started worker; both stopped after `body`. */
    const withRun = async (
      skip: () => never,
      body: (store: WorkflowStore, runId: string) => Promise<void>,
    ) => {
      const store = (await open()) ?? skip();
      const w = worker({ store, workflows: [cart], pollMs: 20, handleSignals: false });
      await w.start();
      try {
        const { runId } = await cart.start(undefined, { store });
        expect(await cart.query(runId, 'items', undefined, { store })).toEqual([]); // parked, answering
        await body(store, runId);
      } finally {
        await w.stop();
      }
    };

    it('refuses hostile names and update ids, naming them; nothing is queued or applied', async ({
      skip,
    }) => {
      await withRun(skip, async (store, runId) => {
        const o = { store };
        const expected =
          /expected 1 to 200 characters of text without control characters or lone surrogates, received/;
        for (const [what, name] of hostileNames) {
          await expect(cart.query(runId, name as string, undefined, o), what).rejects.toMatchObject(
            {
              code: 'INVALID_ARGUMENT',
              message: expect.stringMatching(new RegExp(`^query: name: ${expected.source}`)),
            },
          );
          await expect(cart.update(runId, name as string, 'x', o), what).rejects.toMatchObject({
            code: 'INVALID_ARGUMENT',
            message: expect.stringMatching(new RegExp(`^update: name: ${expected.source}`)),
          });
          if (name === null) continue; // updateId: null is no id: one is made
          await expect(
            cart.update(runId, 'add', 'x', { ...o, updateId: name as string }),
            what,
          ).rejects.toMatchObject({
            code: 'INVALID_ARGUMENT',
            message: expect.stringMatching(new RegExp(`^update: updateId: ${expected.source}`)),
          });
        }
        // Names a plain object would resolve through its prototype are unknown, not handlers.
        for (const name of ['__proto__', 'constructor', 'toString']) {
          await expect(cart.query(runId, name, undefined, o)).rejects.toMatchObject({
            code: 'UNKNOWN_QUERY',
          });
          await expect(cart.update(runId, name, 'x', o)).rejects.toMatchObject({
            code: 'UNKNOWN_UPDATE',
          });
        }
        expect(await store.openRequests(runId)).toEqual([]);
        expect((await store.history(runId)).filter((e) => e.kind === 'update')).toEqual([]);
        expect(await cart.query(runId, 'items', undefined, o)).toEqual([]);
      });
    });

    it('answers a handler that throws what is not an Error with a readable failure; the run goes on', async ({
      skip,
    }) => {
      await withRun(skip, async (store, runId) => {
        const o = { store };
        const described = {
          string: 'threw: a string',
          null: 'threw: null was thrown',
          undefined: 'threw: undefined was thrown',
          symbol: 'threw: Symbol(s) was thrown',
          hostile: 'threw: an object that cannot be described was thrown',
        };
        for (const [name, text] of Object.entries(described)) {
          await expect(cart.query(runId, `throws-${name}`, undefined, o)).rejects.toMatchObject({
            code: 'QUERY_FAILED',
            message: expect.stringContaining(text),
          });
          await expect(cart.update(runId, `throws-${name}`, undefined, o)).rejects.toMatchObject({
            code: 'UPDATE_FAILED',
            message: expect.stringContaining(text),
          });
        }
        await expect(cart.query(runId, 'bigint', undefined, o)).rejects.toMatchObject({
          code: 'QUERY_FAILED',
          message: expect.stringMatching(/the result of query "bigint" must be JSON .*bigint/),
        });
        expect(await cart.update(runId, 'add', 'still here', o)).toBe(1);
      });
    });

    it('takes 1 MB of arguments, refuses 3 MB and values that are not JSON before queueing', async ({
      skip,
    }) => {
      await withRun(skip, async (store, runId) => {
        const o = { store };
        const megabyte = 'm'.repeat(1_000_000);
        expect(await cart.query(runId, 'size', megabyte, o)).toBe(1_000_000);
        expect(await cart.update(runId, 'add', megabyte, o)).toBe(1);
        await expect(cart.update(runId, 'add', 'm'.repeat(3_000_000), o)).rejects.toMatchObject({
          code: 'TOO_LARGE',
          message: expect.stringMatching(
            /the arguments of update "add" is 3000002 bytes of JSON, more than the limit of 2097152/,
          ),
        });
        const cycle: Record<string, unknown> = {};
        cycle.self = cycle;
        for (const [args, why] of [
          [10n, 'bigint'],
          [cycle, 'a cycle'],
          [() => 1, 'function'],
        ] as const) {
          await expect(cart.update(runId, 'add', args, o)).rejects.toMatchObject({
            code: 'NOT_JSON',
            message: expect.stringContaining(why),
          });
        }
        expect(await store.openRequests(runId)).toEqual([]);
        expect(await cart.query(runId, 'items', undefined, o)).toEqual(['m'.repeat(20)]);
      });
    });

    it('refuses an update and a query to a finished run with RUN_FINISHED, recording nothing', async ({
      skip,
    }) => {
      await withRun(skip, async (store, runId) => {
        const o = { store };
        await cart.update(runId, 'add', 'apple', { ...o, updateId: 'apple' });
        await cart.signal({ store, runId, name: 'checkout' });
        expect(await cart.result(runId, o)).toEqual(['apple']);
        const history = await store.history(runId);
        for (const send of [
          () => cart.update(runId, 'add', 'late', o),
          () => cart.update(runId, 'add', 'late', { ...o, updateId: 'late' }),
          () => cart.query(runId, 'items', undefined, o),
        ]) {
          await expect(send()).rejects.toMatchObject({
            code: 'RUN_FINISHED',
            message: expect.stringMatching(/is done; it takes no more (updates|queries)/),
          });
        }
        // The update it applied is still answered by its id.
        expect(await cart.update(runId, 'add', 'apple', { ...o, updateId: 'apple' })).toBe(1);
        expect(await store.history(runId)).toEqual(history);
        expect(await store.openRequests(runId)).toEqual([]);
      });
    });
  },
);
