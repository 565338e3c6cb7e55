/**
 * A handoff across a SIGKILL (real child processes, SQLite): the worker dies while the
 * agent handed to is waiting for its first answer; a new process finishes the run without
 * asking the first agent's model again or re-running the tool that turn ran.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { type Store, sqliteStore } from '../../../src/ai/session/index.ts';
import {
  type ChatRequest,
  type ChatServer,
  calledTool,
  chatServer,
  systemOf,
} from '../../helpers/chat-server.ts';
import { nodeChild, PROCESS_TIMEOUT_MS } from '../../helpers/child-process.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('handoff-crash');
const WORKER = join(import.meta.dirname, 'fixtures', 'handoff-worker.ts');

/** Waits until the dead worker's lease on the run has expired. */
async function leaseExpired(store: Store, runId: string) {
  for (;;) {
    const run = await store.get(runId);
    if (run?.status !== 'running' || (run.leaseExpiresAt ?? 0) < Date.now() - 5) return;
    await sleep(25);
  }
}

let server: ChatServer | undefined;
afterAll(() => server?.close());

describe('a handoff across a SIGKILL', () => {
  it(
    'bills no finished model request twice and runs no finished tool twice',
    async () => {
      const db = join(dir, 'handoff.db');
      const log = join(dir, 'lookups.jsonl');
      const runId = 'run-handoff-crash';
      let refundsAsked = 0;
      let hung: () => void = () => {};
      const refundsHangs = new Promise<void>((resolve) => {
        hung = resolve;
      });
      server = await chatServer((body: ChatRequest) => {
        if (systemOf(body) === 'triage') {
          return {
            toolCalls: [
              { id: 'look_1', name: 'lookup', args: {} },
              { id: 'hand_1', name: 'transfer_to_refunds', args: {} },
            ],
          };
        }
        refundsAsked += 1;
        if (refundsAsked === 1) {
          return () => hung(); // never answered: the worker dies waiting
        }
        expect(calledTool(body, 'lookup')).toBe(true);
        return { text: 'Refunds: order 7 refunded.' };
      });
      const base = { db, log, runId, url: server.url, leaseMs: 300 };
      const first = nodeChild(WORKER, { ...base, op: 'start' });
      await refundsHangs;
      first.process.kill('SIGKILL');
      expect(await first.done).toEqual({ killed: 'SIGKILL' });

      const store = sqliteStore(db);
      const stored = (await store.get(runId))!;
      expect(stored.status).toBe('running');
      // The session stores each tool outcome; the handoff is taken again from them on resume.
      expect(stored.state!.turn!.results.map((r) => r.toolCallId).sort()).toEqual([
        'hand_1',
        'look_1',
      ]);
      await leaseExpired(store, runId);
      await store.close();

      const second = await nodeChild(WORKER, { ...base, op: 'continue' }).done;
      expect(second).toEqual({
        runId,
        status: 'done',
        text: 'Refunds: order 7 refunded.',
        agent: 'refunds',
      });
      const asked = server.requests.map(systemOf);
      expect(asked).toEqual(['triage', 'refunds', 'refunds']); // triage's turn billed once
      const lookups = readFileSync(log, 'utf8').trim().split('\n');
      expect(lookups).toHaveLength(1); // the finished tool did not run again
    },
    PROCESS_TIMEOUT_MS,
  );
});
