/**
 * Attack corpus for server-to-client input on MCP 2026-07-28 (input-required results,
 * SEP-2322): a client that answers with garbage, too much, a forged or stale state, to
 * questions it was not asked, twice, or never. Each gets a clear answer, the tool's
 * `ctx.sample()`/`ctx.elicit()` rejects once with what was wrong (never asked again in a
 * loop), and the server keeps serving.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type McpHttpServer, mcpServer } from '../../src/ai/mcp/index.ts';
import { CALL_STATE_TTL_SECONDS } from '../../src/ai/mcp/server/call-state.ts';
import { MAX_CALL_INPUT_BYTES, MAX_CALL_INPUTS } from '../../src/ai/mcp/server/input-rounds.ts';
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';
import { modernRequest } from '../ai/mcp/fixtures/modern-http.ts';

const NAME_FORM = {
  type: 'object' as const,
  properties: { name: { type: 'string' } },
  required: ['name'],
};

const greet = tool({
  name: 'greet',
  description: 'Asks a name, then greets.',
  parameters: v.object({ greeting: v.string() }),
  sideEffects: false,
  execute: async ({ greeting }: { greeting: string }, ctx) => {
    const answer = await ctx.elicit({ key: 'user_name', message: 'Your name?', schema: NAME_FORM });
    return answer.action === 'accept' ? `${greeting}, ${answer.content.name}!` : 'no name';
  },
});

const haiku = tool({
  name: 'haiku',
  description: "Asks the client's model for a haiku.",
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) =>
    (
      await ctx.sample({
        key: 'haiku',
        messages: [{ role: 'user', content: 'A haiku.' }],
        maxTokens: 50,
      })
    ).text,
});

const endless = tool({
  name: 'endless',
  description: 'Asks forever.',
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) => {
    for (;;) await ctx.elicit({ message: 'Again?', schema: NAME_FORM });
  },
});

const badKey = tool({
  name: 'bad_key',
  description: 'Names its form with a reserved key.',
  parameters: v.object({}),
  sideEffects: false,
  execute: async (_args, ctx) =>
    JSON.stringify(await ctx.elicit({ key: 'approval', message: 'x', schema: NAME_FORM })),
});

const call = (url: string, name: string, extra: Record<string, unknown> = {}, args = {}) =>
  modernRequest(url, 'tools/call', { name, arguments: args, ...extra });

describe('a hostile client answering input requests', () => {
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await mcpServer({
      name: 'asker',
      version: '1.0.0',
      tools: [greet, haiku, endless, badKey],
    }).listen({ port: 0 });
  });
  afterAll(() => http.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The first round of `greet`: its input request and state. */
  const firstRound = async (greeting = 'Hello') => {
    const first = await call(http.url, 'greet', {}, { greeting });
    expect(first.result.resultType).toBe('input_required');
    return first.result as { requestState: string; inputRequests: Record<string, unknown> };
  };
  const answer = async (response: unknown, greeting = 'Hello') => {
    const { requestState } = await firstRound(greeting);
    return call(
      http.url,
      'greet',
      { inputResponses: { user_name: response }, requestState },
      { greeting },
    );
  };

  it('garbage answers make ctx.elicit/ctx.sample reject once, naming what was wrong', async () => {
    for (const garbage of [12345, 'yes', []]) {
      // Not an object: the SDK drops the entry, so the question is still open and asked again.
      const done = await answer(garbage);
      expect(done.result.resultType, JSON.stringify(garbage)).toBe('input_required');
    }
    for (const garbage of [{ action: 'maybe' }, { name: 'Ana' }]) {
      const done = await answer(garbage);
      expect(done.result.isError, JSON.stringify(garbage)).toBe(true);
      expect(done.result.content[0].text).toContain(
        `the client's answer "user_name" is not an elicitation result ({ action, content? })`,
      );
    }
    const wrongForm = await answer({ action: 'accept', content: { name: 42 } });
    expect(wrongForm.result.content[0].text).toContain(
      'ctx.elicit: the answer to "Your name?" does not match the form',
    );
    const first = await call(http.url, 'haiku');
    const sampled = await call(http.url, 'haiku', {
      inputResponses: { haiku: { role: 'assistant', content: { type: 'text', text: 'x' } } },
      requestState: first.result.requestState,
    });
    expect(sampled.result.content[0].text).toContain(
      `the client's answer "haiku" is not a sampling result ({ role, content, model })`,
    );
  });

  it('a sampling answer to a form, or a form answer to a sampling request, is refused', async () => {
    const done = await answer({
      role: 'assistant',
      model: 'm',
      content: { type: 'text', text: 'Ana' },
    });
    expect(done.result.content[0].text).toContain('is not an elicitation result');
  });

  it(`an answer past ${MAX_CALL_INPUT_BYTES} bytes is refused, not carried in the state`, async () => {
    const huge = { action: 'accept', content: { name: 'x'.repeat(MAX_CALL_INPUT_BYTES) } };
    const done = await answer(huge);
    expect(done.result.isError).toBe(true);
    expect(done.result.content[0].text).toContain(
      `more than the ${MAX_CALL_INPUT_BYTES} bytes a call's answers may take together`,
    );
  });

  it('a tampered, foreign or reused-for-other-arguments state is a -32602 error', async () => {
    const { requestState } = await firstRound();
    const inputResponses = { user_name: { action: 'accept', content: { name: 'Eve' } } };
    for (const forged of [`${requestState}-TAMPERED`, 'garbage', `v1.${'A'.repeat(40)}.AAAA`]) {
      const refused = await call(
        http.url,
        'greet',
        { inputResponses, requestState: forged },
        {
          greeting: 'Hello',
        },
      );
      expect(refused.error?.code).toBe(-32602);
      expect(refused.error?.message).toContain('Invalid or expired requestState');
    }
    const otherArgs = await call(
      http.url,
      'greet',
      { inputResponses, requestState },
      {
        greeting: 'Bye',
      },
    );
    expect(otherArgs.error?.code).toBe(-32602);
    const otherTool = await call(http.url, 'haiku', { inputResponses, requestState });
    expect(otherTool.error?.code).toBe(-32602);
  });

  it('answers under keys the call does not ask are ignored; one given early is the answer', async () => {
    const { requestState } = await firstRound();
    const wrongKey = await call(
      http.url,
      'greet',
      { inputResponses: { other: { action: 'accept', content: { name: 'Eve' } } }, requestState },
      { greeting: 'Hello' },
    );
    expect(wrongKey.result.resultType).toBe('input_required');
    expect(Object.keys(wrongKey.result.inputRequests)).toEqual(['user_name']);
    // As SEP-2322's write-once tools read them: by key, so extra keys change nothing.
    const early = await call(
      http.url,
      'greet',
      {
        inputResponses: {
          user_name: { action: 'accept', content: { name: 'Eve' } },
          extra: { action: 'accept', content: { foo: 'bar' } },
        },
      },
      { greeting: 'Hello' },
    );
    expect(early.result.content[0].text).toBe('Hello, Eve!');
  });

  it('never answering holds nothing: the state is the whole call, and it expires after an hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-04T12:00:00Z'));
    const { requestState } = await firstRound();
    vi.setSystemTime(new Date(Date.now() + (CALL_STATE_TTL_SECONDS + 1) * 1000));
    const late = await call(
      http.url,
      'greet',
      {
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ana' } } },
        requestState,
      },
      { greeting: 'Hello' },
    );
    expect(late.error?.code).toBe(-32602);
    expect(late.error?.message).toContain('its hour has passed');
  });

  it('answering twice runs the call twice, each with its own answer', async () => {
    const { requestState } = await firstRound();
    const withName = (name: string) =>
      call(
        http.url,
        'greet',
        { inputResponses: { user_name: { action: 'accept', content: { name } } }, requestState },
        { greeting: 'Hello' },
      );
    const [ana, bob] = await Promise.all([withName('Ana'), withName('Bob')]);
    expect(ana.result.content[0].text).toBe('Hello, Ana!');
    expect(bob.result.content[0].text).toBe('Hello, Bob!');
  });

  it(`a call asks at most ${MAX_CALL_INPUTS} times`, async () => {
    let round = await call(http.url, 'endless');
    let rounds = 0;
    while (round.result?.resultType === 'input_required') {
      rounds++;
      const [key] = Object.keys(round.result.inputRequests);
      round = await call(http.url, 'endless', {
        inputResponses: { [key]: { action: 'accept', content: { name: 'Ana' } } },
        requestState: round.result.requestState,
      });
    }
    expect(rounds).toBe(MAX_CALL_INPUTS);
    expect(round.result.isError).toBe(true);
    expect(round.result.content[0].text).toContain(
      `a call may ask its client at most ${MAX_CALL_INPUTS} times on MCP 2026-07-28`,
    );
  });

  it('a key the wire forms use is refused before anything is asked', async () => {
    const refused = await call(http.url, 'bad_key');
    expect(refused.result.isError).toBe(true);
    expect(refused.result.content[0].text).toContain('ctx.elicit: key: expected 1 to 64 letters');
  });
});
