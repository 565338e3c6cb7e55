/**
 * A chat over two server processes behind one load balancer (issue 28, item 4): each
 * process serves `chatHandler` over its own connection to one SQLite file or PostgreSQL
 * schema; the page is `ai`'s own chat client (`AbstractChat` + `DefaultChatTransport`)
 * talking to the balancer, which sends a request to A or to B as the test pins it. A
 * reload's resume, an approval, and a takeover after A is SIGKILLed each land on the
 * other process than the one that began the run.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/ai/session/index.ts';
import { type Child, nodeChild } from '../../helpers/child-process.ts';
import { type HttpBalancer, httpBalancer } from '../../helpers/http-balancer.ts';
import { sharedDatabases } from '../../helpers/shared-database.ts';
import { TestChat } from '../../helpers/ui-chat-client.ts';
import { waitFor } from '../../helpers/wait-for.ts';

const SERVER = join(import.meta.dirname, 'fixtures', 'chat-process.ts');
const shared = sharedDatabases('chat-handler-processes');
/** Each test, its child processes' start on a loaded machine included. */
const TEST_MS = 60_000;
const A = 0;
const B = 1;
const STORY = ['part 0', 'part 1', 'part 2', 'the end'];

/** Two chat server processes (tags A and B) on `db`, and the balancer in front of them. */
interface Cluster {
  a: Child;
  b: Child;
  balancer: HttpBalancer;
  /** The chat routes' base URL, through the balancer. */
  api: string;
  store: Store;
  /** Where `pay` notes the process it ran in, a line each time. */
  paidLog: string;
}

/** Runs `body` on a new cluster over a new database of `engine`; stops it all after. */
const onCluster =
  (engine: 'sqlite' | 'postgres', leaseMs: number, body: (cluster: Cluster) => Promise<void>) =>
  async (ctx: { skip(): void }) => {
    const db = await shared(engine);
    if (!db) return ctx.skip();
    const paidLog = join(db.dir, `paid-${randomUUID()}.log`);
    const server = (tag: string) =>
      nodeChild(SERVER, {
        db: db.db,
        schema: db.schema,
        leaseMs,
        steps: 4,
        wordMs: 60,
        tag,
        paidLog,
      });
    const a = server('A');
    const b = server('B');
    const store = db.open();
    let balancer: HttpBalancer | undefined;
    try {
      await Promise.all([a.ready, b.ready]);
      balancer = await httpBalancer([portOf(a), portOf(b)]);
      await body({ a, b, balancer, api: `${balancer.url}/api/chat`, store, paidLog });
    } finally {
      for (const child of [a, b]) child.process.kill('SIGTERM');
      await Promise.all([a.done, b.done].map((done) => done.catch(() => undefined)));
      await balancer?.close();
      await store.close();
    }
  };

describe.each(['sqlite', 'postgres'] as const)('a chat on two processes over %s', (engine) => {
  it(
    'a reload’s resume on B completes the answer A streams, as the page that stayed sees it',
    onCluster(engine, 30_000, async ({ balancer, api }) => {
      balancer.pin(A);
      const stayed = page('chat-reload', api);
      const sent = stayed.sendMessage({ text: 'Tell me a story' });
      await waitFor(() => textsOf(stayed.messages.at(-1)).length >= 2, 'the story to stream');

      balancer.pin(B);
      const reloaded = await reload('chat-reload', api);
      await sent;
      expect(where(balancer)).toEqual([`POST /api/chat → ${A}`, ...reloadOn(B, 'chat-reload')]);
      expect(reloaded.errors).toEqual([]);
      expect(stayed.errors).toEqual([]);
      expect(reloaded.messages.map(({ role }) => role)).toEqual(['user', 'assistant']);
      expect(textsOf(reloaded.messages[0])).toEqual(['Tell me a story']);
      const answer = reloaded.messages[1];
      expect(answer).toEqual(stayed.messages[1]);
      expect(textsOf(answer)).toEqual(STORY.map((text) => `${text} by A`));
      expect(answer.metadata).toMatchObject({ fino: { status: 'done' } });
    }),
    TEST_MS,
  );

  it(
    'an approval posted to B decides the call A asked about; B runs it once and streams the rest',
    onCluster(engine, 30_000, async ({ balancer, api, store, paidLog }) => {
      balancer.pin(A);
      const tab = page('chat-pay', api);
      await tab.sendMessage({ text: 'Please pay the bill' });
      const asked = toolPart(tab.messages.at(-1), 'pay');
      expect(asked).toMatchObject({ state: 'approval-requested', input: { amount: 10 } });
      const runId = tab.messages[1].id;

      balancer.pin(B);
      await tab.addToolApprovalResponse({ id: approvalIdOf(asked), approved: true });
      await waitFor(
        () => tab.status === 'ready' && statusOf(tab.messages.at(-1)) === 'done',
        'the approved run to finish on the page',
      );
      expect(where(balancer)).toEqual([`POST /api/chat → ${A}`, `POST /api/chat → ${B}`]);
      expect(tab.errors).toEqual([]);
      expect(tab.messages.map(({ id }) => id).slice(1)).toEqual([runId]);
      const answer = tab.messages[1];
      expect(textsOf(answer)).toEqual(['Paying 10 by A.', 'Paid by B.']);
      expect(toolPart(answer, 'pay')).toMatchObject({
        state: 'output-available',
        output: 'paid 10 by B',
      });
      expect(readFileSync(paidLog, 'utf8')).toBe('B\n');
      expect(await store.audit(runId)).toEqual([
        expect.objectContaining({ action: 'approve', toolCallId: 'pay_0', by: 'alice' }),
      ]);
    }),
    TEST_MS,
  );

  it(
    'A SIGKILLed mid-answer: a resume on B after A’s lease expired takes the run over, each step’s text once',
    onCluster(engine, 1_500, async (cluster) => {
      const runId = await killMidAnswer(cluster, 'chat-late');
      await waitFor(
        async () => ((await cluster.store.get(runId))?.leaseExpiresAt ?? 0) < Date.now(),
        'A’s lease to expire',
      );
      cluster.balancer.pin(B);
      expectTakenOver(await reload('chat-late', cluster.api), runId);
      expect(where(cluster.balancer).slice(1)).toEqual(reloadOn(B, 'chat-late'));
      const log = await cluster.store.readEvents(runId, 0, 1000);
      expect(log?.events.map(({ event }) => event)).toContainEqual(
        expect.objectContaining({ type: 'run-resumed', reason: 'takeover' }),
      );
    }),
    TEST_MS,
  );

  // The resume that comes before A's lease expired used to follow the dead run for ever:
  // resumeTurn (src/ai/ui/chat-resume.ts) looked at the lease once, when the request came.
  it(
    'A SIGKILLed mid-answer: a resume on B before A’s lease expired takes the run over when it does',
    onCluster(engine, 3_000, async (cluster) => {
      const runId = await killMidAnswer(cluster, 'chat-early');
      expect((await cluster.store.get(runId))?.leaseExpiresAt).toBeGreaterThan(Date.now() + 500);
      cluster.balancer.pin(B);
      expectTakenOver(await reload('chat-early', cluster.api, 15_000), runId);
    }),
    TEST_MS,
  );
});

/**
 * A page asks for a story through A; A is SIGKILLed while the second step streams (the
 * page's request is cut). Resolves to the run's id: a run still `running` on A's lease.
 */
async function killMidAnswer({ a, balancer, api, store }: Cluster, id: string): Promise<string> {
  balancer.pin(A);
  const left = page(id, api);
  const sent = left.sendMessage({ text: 'Tell me a story' });
  await waitFor(
    () => textsOf(left.messages.at(-1)).some((text) => text.startsWith('part 1')),
    'the second step to stream',
  );
  a.process.kill('SIGKILL');
  expect(await a.done).toEqual({ killed: 'SIGKILL' });
  await sent;
  const runId = left.messages[1].id;
  expect((await store.get(runId))?.status).toBe('running');
  return runId;
}

/** The reloaded page shows run `runId` complete, finished by B, each step's text once. */
function expectTakenOver(reloaded: TestChat, runId: string): void {
  expect(reloaded.errors).toEqual([]);
  const answer = reloaded.messages.at(-1);
  expect(answer?.id).toBe(runId);
  const texts = textsOf(answer);
  expect(texts.map((text) => text.replace(/ by [AB]$/, ''))).toEqual(STORY);
  expect(texts.at(-1)).toBe('the end by B');
  expect(answer?.parts.filter((part) => part.type === 'tool-tick')).toHaveLength(3);
  expect(answer?.metadata).toMatchObject({ fino: { status: 'done' } });
}

const AUTHORIZATION = { authorization: 'Bearer alice' };

/** A page of chat `id`, signed in as alice, talking to `api`. */
function page(id: string, api: string, messages?: UIMessage[]): TestChat {
  return new TestChat({
    id,
    api,
    messages,
    handler: (request) => {
      request.headers.set('authorization', AUTHORIZATION.authorization);
      return fetch(request);
    },
  });
}

/** A page reloaded: the chat's messages from the server, then `resumeStream()` to its end (within `ms`). */
async function reload(id: string, api: string, ms = 20_000): Promise<TestChat> {
  const response = await fetch(`${api}/${id}/messages`, { headers: AUTHORIZATION });
  expect(response.status).toBe(200);
  const history = (await response.json()) as UIMessage[];
  // Mid-answer: the thread holds the question; the answer comes from the resumed stream.
  expect(history.map(({ role }) => role)).toEqual(['user']);
  const reloaded = page(id, api, history);
  let resumed = false;
  void reloaded.resumeStream().then(() => {
    resumed = true;
  });
  await waitFor(() => resumed, 'the resumed stream to end', ms);
  return reloaded;
}

const reloadOn = (upstream: number, id: string) => [
  `GET /api/chat/${id}/messages → ${upstream}`,
  `GET /api/chat/${id}/stream → ${upstream}`,
];

const where = (balancer: HttpBalancer) =>
  balancer.log.map(({ method, path, upstream }) => `${method} ${path} → ${upstream}`);

const portOf = (child: Child): number => {
  const line = child
    .output()
    .stdout.split('\n')
    .find((l) => l.startsWith('{"port"'));
  return (JSON.parse(line ?? '{}') as { port: number }).port;
};

const textsOf = (message: UIMessage | undefined): string[] =>
  (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));

const toolPart = (message: UIMessage | undefined, name: string) =>
  message?.parts.find((part) => part.type === `tool-${name}`) as
    | Record<string, unknown>
    | undefined;

const approvalIdOf = (part: Record<string, unknown> | undefined): string =>
  (part?.approval as { id: string } | undefined)?.id ?? '';

const statusOf = (message: UIMessage | undefined): unknown =>
  (message?.metadata as { fino?: { status?: string } } | undefined)?.fino?.status;
