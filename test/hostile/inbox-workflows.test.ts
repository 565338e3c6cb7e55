/**
 * Hostile input to the inbox's workflow pages: a workflows source that throws hostile
 * values or returns far too much, over-long and malformed ids. The inbox answers every
 * request with a bounded page and never crashes.
 */
import { describe, expect, it } from 'vitest';
import { WORKFLOW_LIST_LIMIT } from '../../src/ai/session/inbox/workflows.ts';
import {
  type InboxWorkflowPending,
  type InboxWorkflows,
  inbox,
  memoryStore,
  session,
} from '../../src/ai/session/index.ts';

const ORIGIN = 'http://127.0.0.1:9999';

const pendingOf = (i: number): InboxWorkflowPending => ({
  runId: `wf-${i}`,
  decisionId: '$call:refund',
  kind: 'approval',
  toolCallId: 'c',
  toolName: 'refund',
  args: { i },
  argsHash: 'x',
  createdAt: 1_700_000_000_000 + i,
});

function source(overrides: Partial<InboxWorkflows>): InboxWorkflows {
  const run = (runId: string) => ({
    runId,
    workflowId: 'refunds',
    status: 'waiting',
    input: null,
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
  });
  return {
    list: async () => Array.from({ length: 5_000 }, (_, i) => run(`wf-${i}`)),
    get: async (runId) => run(runId),
    history: async () => [],
    pending: async () => Array.from({ length: 5_000 }, (_, i) => pendingOf(i)),
    decide: async () => undefined,
    ...overrides,
  };
}

describe('hostile: workflow runs in the inbox', () => {
  it(`shows at most ${WORKFLOW_LIST_LIMIT} pending decisions and runs, newest first`, async () => {
    const handle = inbox({ session: session({ store: memoryStore() }), workflows: source({}) });
    const pending = await (await handle(new Request(`${ORIGIN}/`))).text();
    const cards = [...pending.matchAll(/data-workflow-run="([^"]+)"/g)].map((m) => m[1]);
    expect(cards).toHaveLength(WORKFLOW_LIST_LIMIT);
    expect(cards[0]).toBe('wf-4999');
    const runs = await (await handle(new Request(`${ORIGIN}/?status=running`))).text();
    expect([...runs.matchAll(/<a href="\/workflows\//g)]).toHaveLength(WORKFLOW_LIST_LIMIT);
  });

  it('answers a 500 page when the source throws a hostile value, and reports it', async () => {
    const hostile = {
      get message() {
        throw new Error('message getter');
      },
      get name() {
        throw new Error('name getter');
      },
    };
    const seen: unknown[] = [];
    const handle = inbox({
      session: session({ store: memoryStore() }),
      workflows: source({
        pending: async () => {
          throw hostile;
        },
        get: async () => {
          throw hostile;
        },
      }),
      onError: (error) => seen.push(error),
    });
    for (const path of ['/', '/workflows/wf-1']) {
      const response = await handle(new Request(`${ORIGIN}${path}`));
      expect(response.status).toBe(500);
      expect(await response.text()).toContain('The inbox could not answer');
    }
    expect(seen).toHaveLength(2);
  });

  it('refuses over-long, control-character and malformed workflow ids with 400', async () => {
    const handle = inbox({ session: session({ store: memoryStore() }), workflows: source({}) });
    for (const id of ['x'.repeat(257), '%00abc', '%E0%A4%A']) {
      const response = await handle(new Request(`${ORIGIN}/workflows/${id}`));
      expect(response.status).toBe(400);
    }
  });
});
