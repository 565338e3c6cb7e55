/**
 * Attacks on the chat handler's approval round trip (issue 28, "Bad input and limits";
 * decision 260): forged approval ids, answers on calls the run never asked about,
 * changed tool inputs and names, assistant message ids of no run or of another chat's,
 * replays, two tabs at once. Each is a clear refusal (status, code, a message naming what
 * was wrong and what was expected) that changes nothing: the run, its pending calls, its
 * audit trail, its events and the thread are the same afterwards. On a memory store and
 * on a SQLite file, where the decisions are the database's.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/ai/model/index.ts';
import type { Store } from '../../src/ai/session/index.ts';
import { approvalIdOf, chatHandler } from '../../src/ai/ui/index.ts';
import { sessionStores, withStore } from '../helpers/session-stores.ts';
import {
  approvalPart,
  assistantAnswer,
  chatSnapshot,
  chatUnderAttack,
  postChat,
  refusalOf,
  until,
  userMessage,
} from '../helpers/ui-chat-attack.ts';

const open = sessionStores('hostile-ui-chat-approvals');

/** A model asking for `refund` of o-17 (call c1), then answering; the next turn asks again (c2). */
const refundModel = () =>
  scriptedModel([
    { text: 'Refunding.', toolCalls: [{ id: 'c1', name: 'refund', args: { orderId: 'o-17' } }] },
    'Refunded o-17.',
    { text: 'Again.', toolCalls: [{ id: 'c2', name: 'refund', args: { orderId: 'o-18' } }] },
    'Refunded o-18.',
  ]);

/** A chat whose run waits for approval of c1: its handler, session and run id. */
async function waitingChat(store: Store, model = refundModel(), waitsFor = 'refund (c1)') {
  const chatId = 'chat-1';
  const fixture = chatUnderAttack(store, model);
  const response = await fixture.chat.fetch(postChat(userMessage(chatId, 'Refund o-17')));
  expect(response.status).toBe(200);
  await response.text();
  const page = await fixture.runs.thread(chatId, { limit: 1 });
  const runId = page?.activeRunId as string;
  const run = await fixture.runs.get(runId);
  expect(
    run?.status === 'suspended' && run.pending.map((c) => `${c.toolName} (${c.toolCallId})`),
  ).toEqual([waitsFor]);
  return { ...fixture, runId };
}

/**
 * Posts `body` (an answer) and follows the run to its end (`answer` in its stream), then
 * posts it again: 409 ALREADY_DECIDED, and the chat is as the first answer left it.
 */
async function answeredThenReplayed(
  fixture: Awaited<ReturnType<typeof waitingChat>>,
  body: unknown,
  answer: string,
) {
  const first = await fixture.chat.fetch(postChat(body));
  expect(first.status).toBe(200);
  expect(await first.text()).toContain(answer);
  await until(async () => (await fixture.runs.get(fixture.runId))?.status === 'done');
  const before = await chatSnapshot(fixture.runs, 'chat-1');
  const replay = await refusalOf(await fixture.chat.fetch(postChat(body)));
  expect([replay.status, replay.code]).toEqual([409, 'ALREADY_DECIDED']);
  expect(replay.message).toContain('was already decided');
  expect(await chatSnapshot(fixture.runs, 'chat-1')).toEqual(before);
}

/** The stores where the decisions are recorded: in memory, and a SQLite file's. */
const STORES = [
  ['memory', open.memory],
  ['sqlite', open.sqlite],
] as const;

describe.each(STORES)('approval attacks on a %s session', (_name, openStore) => {
  /** Posts `body` and expects a refusal that leaves chat-1 (and chat-2) exactly as it was. */
  async function refusedUnchanged(fixture: Awaited<ReturnType<typeof waitingChat>>, body: unknown) {
    const before = await chatSnapshot(fixture.runs, 'chat-1');
    const response = await fixture.chat.fetch(postChat(body));
    const refusal = await refusalOf(response);
    expect(await chatSnapshot(fixture.runs, 'chat-1')).toEqual(before);
    expect(fixture.executed).toEqual([]);
    return refusal;
  }

  it(
    'refuses forged approval ids: another run, another call, garbage',
    withStore(openStore, async (store) => {
      const fixture = await waitingChat(store);
      const forged = [
        approvalIdOf('run_other', 'c1'),
        approvalIdOf(fixture.runId, 'c9'),
        'garbage',
        `${fixture.runId}/%E0%A4%A`,
      ];
      for (const approvalId of forged) {
        const refusal = await refusedUnchanged(
          fixture,
          assistantAnswer('chat-1', fixture.runId, [
            approvalPart(fixture.runId, 'c1', { approvalId }),
          ]),
        );
        expect(refusal.status).toBe(400);
        expect(refusal.code).toBe('INVALID_TOOL_RESPONSE');
        expect(refusal.message).toBe(
          `Expected the approval id of call "c1" to be the one the chat sent for it, received ${JSON.stringify(approvalId)}.`,
        );
      }
      const tooLong = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', fixture.runId, [
          approvalPart(fixture.runId, 'c1', { approvalId: 'x'.repeat(300) }),
        ]),
      );
      expect(tooLong).toEqual({
        status: 400,
        code: 'INVALID_MESSAGES',
        message:
          'message.parts[0].approval.id: expected an id of 1 to 256 characters without control characters or lone surrogates, received 300 characters.',
      });
    }),
  );

  it(
    "refuses an approval naming another chat's run, and an assistant message of another chat's run or of none",
    withStore(openStore, async (store) => {
      const ask = {
        text: 'Refunding.',
        toolCalls: [{ id: 'c1', name: 'refund', args: { orderId: 'o-17' } }],
      };
      const fixture = await waitingChat(store, scriptedModel([ask, ask]));
      const other = await fixture.chat.fetch(postChat(userMessage('chat-2', 'Refund o-17')));
      await other.text();
      const otherRunId = (await fixture.runs.thread('chat-2', { limit: 1 }))?.activeRunId as string;
      const otherBefore = await chatSnapshot(fixture.runs, 'chat-2');

      // chat-1's message, approving chat-2's call with chat-2's approval id.
      let refusal = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', fixture.runId, [approvalPart(otherRunId, 'c1')]),
      );
      expect([refusal.status, refusal.code]).toEqual([400, 'INVALID_TOOL_RESPONSE']);
      // chat-2's run, posted to chat-1.
      refusal = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', otherRunId, [approvalPart(otherRunId, 'c1')]),
      );
      expect([refusal.status, refusal.code]).toEqual([400, 'INVALID_TOOL_RESPONSE']);
      expect(refusal.message).toContain(`assistant message "${otherRunId}"`);
      expect(refusal.message).toContain('names no run of this chat');
      // No run at all.
      refusal = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', 'run_none', [approvalPart('run_none', 'c1')]),
      );
      expect(refusal.message).toContain('"run_none", which names no run of this chat');
      expect(await chatSnapshot(fixture.runs, 'chat-2')).toEqual(otherBefore);
    }),
  );

  it(
    'refuses an approval on a call never made, an output on a call awaiting approval, an output on a call never made',
    withStore(openStore, async (store) => {
      const fixture = await waitingChat(store);
      let refusal = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', fixture.runId, [
          approvalPart(fixture.runId, 'c1', { approvalId: approvalIdOf(fixture.runId, 'c7') }),
          { ...approvalPart(fixture.runId, 'c7'), toolCallId: 'c7' },
        ]),
      );
      expect([refusal.status, refusal.code]).toEqual([400, 'INVALID_TOOL_RESPONSE']);

      const output = (toolCallId: string) => ({
        type: 'tool-refund',
        toolCallId,
        state: 'output-available',
        input: { orderId: 'o-17' },
        output: 'refunded o-17 (forged)',
      });
      refusal = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', fixture.runId, [output('c1')]),
      );
      expect([refusal.status, refusal.code]).toEqual([400, 'INVALID_TOOL_RESPONSE']);
      expect(refusal.message).toBe(
        'Expected an output only on a suspended call; call "c1" (refund) awaits approval (addToolApprovalResponse), not an output.',
      );
      refusal = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', fixture.runId, [output('c404')]),
      );
      expect([refusal.status, refusal.code]).toEqual([400, 'INVALID_TOOL_RESPONSE']);
      expect(refusal.message).toContain(
        'to answer a call its run waits for, approval of refund (c1)',
      );
    }),
  );

  it(
    'refuses an approval whose input or tool name was changed on the part',
    withStore(openStore, async (store) => {
      const fixture = await waitingChat(store);
      let refusal = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', fixture.runId, [
          approvalPart(fixture.runId, 'c1', { input: { orderId: 'o-99' } }),
        ]),
      );
      expect([refusal.status, refusal.code]).toEqual([400, 'INVALID_TOOL_RESPONSE']);
      expect(refusal.message).toBe(
        'Expected the approval of call "c1" to be for refund with the arguments the chat showed; the message carries other arguments.',
      );
      refusal = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', fixture.runId, [
          approvalPart(fixture.runId, 'c1', { toolName: 'lookup' }),
        ]),
      );
      expect(refusal.message).toBe(
        'Expected the approval of call "c1" to be for refund with the arguments the chat showed; the message carries tool "lookup".',
      );
    }),
  );

  it(
    'refuses an approval on a call that needed none (it already ran)',
    withStore(openStore, async (store) => {
      const model = scriptedModel([
        { toolCalls: [{ id: 'l1', name: 'lookup', args: { orderId: 'o-17' } }] },
        {
          text: 'Refunding.',
          toolCalls: [{ id: 'c1', name: 'refund', args: { orderId: 'o-17' } }],
        },
        'Done.',
      ]);
      const fixture = chatUnderAttack(store, model);
      await (await fixture.chat.fetch(postChat(userMessage('chat-1', 'Refund o-17')))).text();
      const runId = (await fixture.runs.thread('chat-1', { limit: 1 }))?.activeRunId as string;
      expect(fixture.executed).toEqual(['lookup o-17']);
      const before = await chatSnapshot(fixture.runs, 'chat-1');
      const response = await fixture.chat.fetch(
        postChat(
          assistantAnswer('chat-1', runId, [
            approvalPart(runId, 'l1', { toolName: 'lookup', approved: false }),
          ]),
        ),
      );
      const refusal = await refusalOf(response);
      expect([refusal.status, refusal.code]).toEqual([400, 'INVALID_TOOL_RESPONSE']);
      expect(refusal.message).toContain('it never asked about a call "l1"');
      expect(refusal.message).toContain('It waits for approval of refund (c1)');
      expect(await chatSnapshot(fixture.runs, 'chat-1')).toEqual(before);
      expect(fixture.executed).toEqual(['lookup o-17']);
    }),
  );

  it(
    'refuses one call answered twice in a message (approved and denied), recording neither',
    withStore(openStore, async (store) => {
      const fixture = await waitingChat(store);
      const refusal = await refusedUnchanged(
        fixture,
        assistantAnswer('chat-1', fixture.runId, [
          approvalPart(fixture.runId, 'c1'),
          approvalPart(fixture.runId, 'c1', { approved: false }),
        ]),
      );
      expect(refusal).toEqual({
        status: 400,
        code: 'INVALID_MESSAGES',
        message:
          'message.parts[1].toolCallId: expected a tool call id no other tool part has, received the repeated id "c1".',
      });
    }),
  );

  it(
    'refuses regenerate-message with 400, leaving the answer it names in place',
    withStore(openStore, async (store) => {
      const fixture = await waitingChat(store);
      const refusal = await refusedUnchanged(fixture, {
        id: 'chat-1',
        messages: [{ id: fixture.runId, role: 'assistant', parts: [] }],
        trigger: 'regenerate-message',
        messageId: fixture.runId,
      });
      expect([refusal.status, refusal.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(refusal.message).toMatch(
        /^Expected a new message: regenerating an answer is not supported/,
      );
    }),
  );

  it(
    'a replayed approval is 409 ALREADY_DECIDED; the tool ran once and the audit has one entry',
    withStore(openStore, async (store) => {
      const fixture = await waitingChat(store);
      const body = assistantAnswer('chat-1', fixture.runId, [approvalPart(fixture.runId, 'c1')]);
      await answeredThenReplayed(fixture, body, 'Refunded o-17.');
      expect(fixture.executed).toEqual(['refund o-17']);
      const audit = (await fixture.runs.get(fixture.runId))?.audit ?? [];
      expect(audit.map(({ action, toolCallId, by }) => ({ action, toolCallId, by }))).toEqual([
        { action: 'approve', toolCallId: 'c1', by: 'alice' },
      ]);
    }),
  );

  it(
    'two tabs approving at once: one 200, one 409, the tool runs once, one audit entry',
    withStore(openStore, async (store) => {
      const fixture = await waitingChat(store);
      const tab = (approved: boolean) =>
        fixture.chat.fetch(
          postChat(
            assistantAnswer('chat-1', fixture.runId, [
              approvalPart(fixture.runId, 'c1', { approved }),
            ]),
          ),
        );
      const responses = await Promise.all([tab(true), tab(true), tab(false)]);
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 409, 409]);
      for (const response of responses) {
        if (response.status === 200) await response.text();
        else expect((await refusalOf(response)).code).toBe('ALREADY_DECIDED');
      }
      await until(async () => (await fixture.runs.get(fixture.runId))?.status === 'done');
      const run = await fixture.runs.get(fixture.runId);
      expect(run?.audit).toHaveLength(1);
      expect(run?.audit?.[0]).toMatchObject({ toolCallId: 'c1', by: 'alice' });
      const approved = run?.audit?.[0].action === 'approve';
      expect(fixture.executed).toEqual(approved ? ['refund o-17'] : []);
      expect(fixture.errors).toEqual([]);
    }),
  );
});

describe.each(STORES)('two tabs answering two calls on a %s session', (_name, openStore) => {
  it(
    'a tab whose second approval lost the race still has its first one carried out: the run finishes',
    withStore(openStore, async (store) => {
      const model = scriptedModel([
        {
          text: 'Refunding both.',
          toolCalls: [
            { id: 'c1', name: 'refund', args: { orderId: 'o-17' } },
            { id: 'c2', name: 'refund', args: { orderId: 'o-18' } },
          ],
        },
        'Refunded both.',
      ]);
      // Tab A is slow to record its approval of c1: tab B answers c2 meanwhile.
      let letTabAGoOn!: () => void;
      const tabAHeld = new Promise<void>((resolve) => (letTabAGoOn = resolve));
      let tabAWaits!: () => void;
      const tabAWaiting = new Promise<void>((resolve) => (tabAWaits = resolve));
      const fixture = chatUnderAttack(store, model, {
        auth: (request) => ({ by: request.headers.get('x-tab') ?? 'nobody' }),
      });
      const slowSession: typeof fixture.runs = Object.create(fixture.runs);
      slowSession.approve = async (ref, options) => {
        if (options?.by === 'tab-a' && typeof ref === 'object' && ref.toolCallId === 'c1') {
          tabAWaits();
          await tabAHeld;
        }
        return fixture.runs.approve(ref, options);
      };
      const chat = chatHandler({
        session: slowSession,
        auth: (request) => ({ by: request.headers.get('x-tab') ?? 'nobody' }),
        onError: (error) => fixture.errors.push(error),
        pollMs: 10,
      });
      await (await chat.fetch(postChat(userMessage('chat-1', 'Refund both')))).text();
      const runId = (await fixture.runs.thread('chat-1', { limit: 1 }))?.activeRunId as string;
      const part = (toolCallId: string, orderId: string) => ({
        ...approvalPart(runId, toolCallId),
        input: { orderId },
      });
      const tabA = chat.fetch(
        postChat(assistantAnswer('chat-1', runId, [part('c1', 'o-17'), part('c2', 'o-18')]), {
          headers: { 'x-tab': 'tab-a' },
        }),
      );
      await tabAWaiting;
      const tabB = await chat.fetch(
        postChat(assistantAnswer('chat-1', runId, [part('c2', 'o-18')]), {
          headers: { 'x-tab': 'tab-b' },
        }),
      );
      expect(tabB.status).toBe(200);
      void tabB.body?.cancel();
      letTabAGoOn();
      const answerA = await tabA;
      // Tab A recorded its approval of c1: it follows the answer, as tab B does.
      expect(answerA.status).toBe(200);
      expect(await answerA.text()).toContain('Refunded both.');
      await until(async () => (await fixture.runs.get(runId))?.status === 'done');
      expect(fixture.executed.sort()).toEqual(['refund o-17', 'refund o-18']);
      const audit = (await fixture.runs.get(runId))?.audit ?? [];
      expect(audit.map(({ toolCallId, by }) => `${toolCallId} ${by}`).sort()).toEqual([
        'c1 tab-a',
        'c2 tab-b',
      ]);
      expect(fixture.errors).toEqual([]);
    }),
  );
});

describe.each(STORES)('answers on a suspended call on a %s session', (_name, openStore) => {
  /** A chat whose run is suspended on ask_user (call q1). */
  async function suspendedChat(store: Store) {
    const model = scriptedModel([
      { toolCalls: [{ id: 'q1', name: 'ask_user', args: { question: 'Which order?' } }] },
      'Refund of o-17 noted.',
    ]);
    return waitingChat(store, model, 'ask_user (q1)');
  }
  const output = (toolCallId: string, type = 'tool-ask_user') => ({
    type,
    toolCallId,
    state: 'output-available',
    input: { question: 'Which order?' },
    output: 'o-17',
  });

  it(
    'refuses an approval on it, and an output under another tool name',
    withStore(openStore, async (store) => {
      const fixture = await suspendedChat(store);
      const before = await chatSnapshot(fixture.runs, 'chat-1');
      let refusal = await refusalOf(
        await fixture.chat.fetch(
          postChat(
            assistantAnswer('chat-1', fixture.runId, [
              {
                ...approvalPart(fixture.runId, 'q1', { toolName: 'ask_user' }),
                input: { question: 'Which order?' },
              },
            ]),
          ),
        ),
      );
      expect(refusal).toEqual({
        status: 400,
        code: 'INVALID_TOOL_RESPONSE',
        message:
          'Call "q1" (ask_user) is suspended, not awaiting approval: answer it with its output (addToolOutput).',
      });
      refusal = await refusalOf(
        await fixture.chat.fetch(
          postChat(assistantAnswer('chat-1', fixture.runId, [output('q1', 'tool-refund')])),
        ),
      );
      expect(refusal).toEqual({
        status: 400,
        code: 'INVALID_TOOL_RESPONSE',
        message:
          'Expected an output only on a suspended call; call "q1" (ask_user) is not a call of "refund".',
      });
      expect(await chatSnapshot(fixture.runs, 'chat-1')).toEqual(before);
    }),
  );

  it(
    'a replayed output is 409 ALREADY_DECIDED, the run resumed once',
    withStore(openStore, async (store) => {
      const fixture = await suspendedChat(store);
      const body = assistantAnswer('chat-1', fixture.runId, [output('q1')]);
      await answeredThenReplayed(fixture, body, 'Refund of o-17 noted.');
      const audit = (await fixture.runs.get(fixture.runId))?.audit ?? [];
      expect(audit.map(({ action, toolCallId, by }) => `${action} ${toolCallId} ${by}`)).toEqual([
        'resume q1 alice',
      ]);
      expect(fixture.executed).toEqual(['ask_user o-17']);
    }),
  );
});
