/**
 * Hostile text in session storage: model output, errors, audit notes, actor names,
 * rejection reasons and tool progress messages carrying terminal escape sequences, NUL and other
 * control characters come back from every store exactly as they went in — nothing
 * stripped, cut at the NUL, or corrupted. (Escaping them for a terminal is the CLI's job.)
 * Thread ids are keys, not text: control characters in them are refused (decision 147).
 */
import { describe, expect, it, vi } from 'vitest';
import { agent } from '../../src/ai/agent/index.ts';
import { scriptedModel } from '../../src/ai/model/index.ts';
import { type SessionRun, session } from '../../src/ai/session/index.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import { type OpenStore, sessionStores, withStore } from '../helpers/session-stores.ts';

/**
 * Colours, a window-title OSC, a clear-screen, a bell, NUL, DEL, CR LF, an astral
 * character, and U+FFFF followed by the digits the PostgreSQL driver escapes NUL with.
 */
const HOSTILE =
  'a\u001b[31mred\u001b[0m\u001b]0;owned\u0007\u001b[2J\u0000after-nul\u007f\r\n😀 \uffff0\uffff1\uffff end';

const engines = sessionStores('hostile-session');

const remove = tool({
  name: 'remove_file',
  description: 'Delete a file.',
  parameters: v.object({ path: v.string() }),
  requiresApproval: true,
  execute: async ({ path }: { path: string }) => `deleted ${path}`,
});

const runner = (turns: Parameters<typeof scriptedModel>[0]) =>
  agent({ model: scriptedModel(turns), tools: [remove] });

function suspended(run: SessionRun) {
  if (run.status !== 'suspended') throw new Error(`expected suspended, got ${run.status}`);
  return run;
}

const stores: Array<[string, OpenStore]> = [
  ['memory', engines.memory],
  ['sqlite', engines.sqlite],
  ['postgres', engines.postgres],
];

describe.each(stores)('the %s store', (_name, open) => {
  it(
    'keeps control characters in the final text, audit notes and names; refuses them in thread ids',
    withStore(open, async (store) => {
      const runs = session({
        store,
        agent: runner([
          { toolCalls: [{ id: 'rm_1', name: 'remove_file', args: { path: HOSTILE } }] },
          HOSTILE,
        ]),
      });
      // A thread id is a key printed in logs and terminals: control characters are refused (decision 147).
      await expect(runs.start(HOSTILE, { threadId: HOSTILE })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('start: threadId: expected a thread id'),
      });
      const threadId = 'thread "<b>" \u00e9';
      const run = suspended(await runs.start(HOSTILE, { threadId }));
      expect(run.pending[0].args).toEqual({ path: HOSTILE });
      const done = await runs.approve(run.pending[0].token!, { by: HOSTILE, note: HOSTILE });
      expect(done).toMatchObject({ status: 'done', text: HOSTILE, threadId });
      const stored = (await runs.get(run.runId))!;
      expect(stored).toMatchObject({ status: 'done', text: HOSTILE, threadId });
      expect(stored.audit).toEqual([expect.objectContaining({ by: HOSTILE, note: HOSTILE })]);
      expect(await runs.list({ threadId })).toHaveLength(1);
      const thread = await runs.thread(threadId);
      expect(thread?.messages.at(-1)?.message).toMatchObject({ role: 'assistant' });
      expect(JSON.stringify(thread?.messages.map((m) => m.message))).toContain(
        JSON.stringify(HOSTILE).slice(1, -1),
      );
    }),
  );

  it(
    'keeps them in a rejection reason, a cancel note and an error',
    withStore(open, async (store) => {
      const runs = session({
        store,
        agent: runner([
          { toolCalls: [{ id: 'rm_1', name: 'remove_file', args: { path: 'x' } }] },
          new Error(HOSTILE),
        ]),
      });
      const run = suspended(await runs.start('go'));
      const failed = await runs.reject(run.pending[0].token!, HOSTILE);
      expect(failed).toMatchObject({ status: 'error', error: HOSTILE });
      expect((await runs.get(run.runId))!).toMatchObject({ status: 'error', error: HOSTILE });
      await runs.cancel(run.runId, { by: HOSTILE, note: HOSTILE });
      expect((await runs.get(run.runId))!.audit).toEqual([
        expect.objectContaining({ action: 'reject', note: HOSTILE }),
        expect.objectContaining({ action: 'cancel', by: HOSTILE, note: HOSTILE }),
      ]);
    }),
  );

  it("keeps them in a running tool's progress message", async (ctx) => {
    const store = await open();
    if (!store) return ctx.skip();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const copy = tool({
      name: 'copy',
      description: 'Copies.',
      parameters: v.object({}),
      execute: async (_args: Record<string, never>, toolCtx) => {
        toolCtx.progress({ progress: 1, total: 2, message: HOSTILE });
        await gate;
        return 'copied';
      },
    });
    try {
      const runs = session({
        store,
        agent: agent({
          model: scriptedModel([{ toolCalls: [{ id: 'cp_1', name: 'copy', args: {} }] }, 'ok']),
          tools: [copy],
        }),
      });
      const finished = runs.start('go', { runId: 'progress-run' });
      await vi.waitFor(
        async () =>
          expect(await runs.get('progress-run')).toMatchObject({
            status: 'running',
            progress: { toolCallId: 'cp_1', progress: 1, total: 2, message: HOSTILE },
          }),
        { timeout: 5000, interval: 20 },
      );
      release();
      expect(await finished).toMatchObject({ status: 'done' });
    } finally {
      release();
      await store.close();
    }
  });
});
