/**
 * `start` for a caller that does not await it (a chat handler streaming the run's events):
 * `onStored` says when the run can be read, and a run shows what it started from.
 */
import { expect, it } from 'vitest';
import { agent } from '../../../src/ai/agent/index.ts';
import { type GenerateRequest, scriptedModel } from '../../../src/ai/model/index.ts';
import { memoryStore, type SessionError, session } from '../../../src/ai/session/index.ts';

it('calls onStored once the run is stored, before the agent begins, and shows the input', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const model = scriptedModel([
    async (_request: GenerateRequest) => {
      await held;
      return 'Done.';
    },
  ]);
  const runs = session({ store: memoryStore(), agent: agent({ model }), events: true });
  const seen: string[] = [];
  const started = runs.start('Hi', {
    runId: 'run-1',
    threadId: 'chat-1',
    onStored: (runId) => seen.push(runId),
  });
  await expect.poll(() => seen).toEqual(['run-1']);
  const early = await runs.get('run-1');
  expect(early).toMatchObject({ status: 'running', input: 'Hi', threadId: 'chat-1' });
  release();
  expect(await started).toMatchObject({ status: 'done', input: 'Hi' });
});

it('does not call onStored for a start refused before storing, and ignores what the callback throws', async () => {
  const runs = session({
    store: memoryStore(),
    agent: agent({ model: scriptedModel(['A.', 'B.']) }),
  });
  await runs.start('First', { runId: 'run-1' });
  const seen: string[] = [];
  await expect(
    runs.start('Again', { runId: 'run-1', onStored: (runId) => seen.push(runId) }),
  ).rejects.toMatchObject({ code: 'RUN_EXISTS' } satisfies Partial<SessionError>);
  expect(seen).toEqual([]);
  const run = await runs.start('Second', {
    runId: 'run-2',
    onStored: () => {
      throw new Error('the caller failed');
    },
  });
  expect(run.status).toBe('done');
});
