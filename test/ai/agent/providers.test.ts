/**
 * The agent loop against each provider's replayed wire format: the same tests for every
 * provider, whole and streamed. To add a provider, write a `ProviderFixture` in
 * `providers/` and list it in `FIXTURES`.
 */
import { describe, expect, it } from 'vitest';
import { type Agent, type AgentEvent, agent, type RunResult } from '../../../src/ai/agent/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import { type Reply, useFakeProvider } from '../../helpers/fake-provider.ts';
import { collect, echoTool } from './helpers.ts';
import { anthropicFixture } from './providers/anthropic.ts';
import type { ProviderFixture } from './providers/fixture.ts';
import { geminiFixture } from './providers/gemini.ts';
import { openaiFixture } from './providers/openai.ts';
import { openaiResponsesFixture } from './providers/openai-responses.ts';

const FIXTURES: ProviderFixture[] = [
  openaiFixture,
  openaiResponsesFixture,
  anthropicFixture,
  geminiFixture,
];

const fake = useFakeProvider();

async function serve(fixture: ProviderFixture, replies: Reply[]) {
  const server = await fake.serve(replies);
  return { model: fixture.model(server.url), server };
}

/** Runs `bot` whole or streamed; streamed runs also return their events. */
async function run<O>(
  bot: Agent<O>,
  input: string,
  stream: boolean,
): Promise<{ result: RunResult<O>; events: AgentEvent[] }> {
  if (!stream) return { result: await bot.generate(input), events: [] };
  const running = bot.stream(input);
  const events = await collect(running);
  return { result: await running.result, events };
}

const failing = tool({
  name: 'save',
  description: 'Save a note.',
  parameters: v.object({ note: v.string() }),
  execute: () => {
    throw new Error('disk full');
  },
});

for (const fixture of FIXTURES) {
  for (const stream of [false, true]) {
    describe(`agent loop over ${fixture.name} (${stream ? 'streamed' : 'whole'})`, () => {
      it('runs a tool call and sends its result back', async () => {
        const { model, server } = await serve(fixture, [
          fixture.toolCalls([{ id: 'call_1', name: 'echo', args: { text: 'hi' } }], stream),
          fixture.text('Done.', stream),
        ]);
        const echo = echoTool();
        const { result } = await run(agent({ model, tools: [echo] }), 'Echo hi', stream);
        expect(result.status === 'done' && result.text).toBe('Done.');
        expect(echo.calls.map((c) => c.args)).toEqual([{ text: 'hi' }]);
        expect(server.requests.map((r) => r.path.endsWith(fixture.path(stream)))).toEqual([
          true,
          true,
        ]);
        expect(fixture.sentResults(server.requests[1].body)).toEqual([
          { id: 'call_1', text: 'echo: hi', isError: false },
        ]);
      });

      it('runs parallel calls of one turn and sends their results back in call order', async () => {
        const { model, server } = await serve(fixture, [
          fixture.toolCalls(
            [
              { id: 'call_1', name: 'echo', args: { text: 'a' } },
              { id: 'call_2', name: 'echo', args: { text: 'b' } },
            ],
            stream,
          ),
          fixture.text('Both.', stream),
        ]);
        const echo = echoTool();
        const { result } = await run(agent({ model, tools: [echo] }), 'Echo a and b', stream);
        expect(result.status).toBe('done');
        expect(echo.calls.map((c) => c.args.text).sort()).toEqual(['a', 'b']);
        expect(fixture.sentResults(server.requests[1].body)).toEqual([
          { id: 'call_1', text: 'echo: a', isError: false },
          { id: 'call_2', text: 'echo: b', isError: false },
        ]);
      });

      it('sends a failed tool result marked as an error', async () => {
        const { model, server } = await serve(fixture, [
          fixture.toolCalls([{ id: 'call_1', name: 'save', args: { note: 'x' } }], stream),
          fixture.text('It failed.', stream),
        ]);
        const { result } = await run(agent({ model, tools: [failing] }), 'Save x', stream);
        expect(result.status).toBe('done');
        const [sent] = fixture.sentResults(server.requests[1].body);
        expect(sent).toMatchObject({ id: 'call_1', isError: true });
        expect(sent.text).toContain('disk full');
      });

      it('suspends for approval, then runs the approved call once and sends its result', async () => {
        const { model, server } = await serve(fixture, [
          fixture.toolCalls([{ id: 'call_1', name: 'echo', args: { text: 'rm' } }], stream),
          fixture.text('Removed.', false),
        ]);
        const echo = echoTool({ requiresApproval: true });
        const bot = agent({ model, tools: [echo] });
        const { result: first } = await run(bot, 'Remove it', stream);
        if (first.status !== 'suspended') throw new Error('expected a suspended run');
        expect(first.pending.map((p) => [p.kind, p.toolCallId])).toEqual([['approval', 'call_1']]);
        expect(echo.calls).toHaveLength(0);
        const second = await bot.resume(first.state, { call_1: { approve: true } });
        expect(second.status === 'done' && second.text).toBe('Removed.');
        expect(echo.calls).toHaveLength(1);
        expect(fixture.sentResults(server.requests[1].body)).toEqual([
          { id: 'call_1', text: 'echo: rm', isError: false },
        ]);
      });

      it('asks for structured output and returns the validated answer', async () => {
        const { model, server } = await serve(fixture, [fixture.text('{"city":"Oslo"}', stream)]);
        const bot = agent({ model, output: v.object({ city: v.string() }) });
        const { result } = await run(bot, 'Where?', stream);
        if (result.status !== 'done') throw new Error('expected a finished run');
        const city: string | undefined = result.output?.city;
        expect(city).toBe('Oslo');
        expect(fixture.sentOutputSchema(server.requests[0].body)).toMatchObject({
          type: 'object',
          properties: { city: { type: 'string' } },
        });
      });

      it('repairs an answer that fails the output schema once, sending the issues back', async () => {
        const { model, server } = await serve(fixture, [
          fixture.text('{"town":"Oslo"}', stream),
          fixture.text('{"city":"Oslo"}', stream),
        ]);
        const bot = agent({ model, output: v.object({ city: v.string() }) });
        const { result } = await run(bot, 'Where?', stream);
        expect(result.status === 'done' && result.output).toEqual({ city: 'Oslo' });
        const resent = JSON.stringify(server.requests[1].body);
        expect(resent).toContain('does not match the required output schema');
        expect(resent).toContain('city');
      });

      // Registered for the streamed loop only: a whole turn has no deltas to check.
      if (stream) {
        it('streams text deltas and tool calls as events', async () => {
          const { model } = await serve(fixture, [
            fixture.toolCalls([{ id: 'call_1', name: 'echo', args: { text: 'hi' } }], stream),
            fixture.text('All done.', stream),
          ]);
          const { events } = await run(agent({ model, tools: [echoTool()] }), 'Echo hi', stream);
          const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : []));
          expect(text.length).toBeGreaterThan(1);
          expect(text.join('')).toBe('All done.');
          const calls = events.flatMap((e) => (e.type === 'tool-call' ? [e.call] : []));
          expect(calls).toEqual([{ id: 'call_1', name: 'echo', args: { text: 'hi' } }]);
          expect(events.at(-1)?.type).toBe('finish');
        });
      }
    });
  }
}
