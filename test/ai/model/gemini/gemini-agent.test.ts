/**
 * gemini() under the agent loop, against replayed Gemini wire traffic: a function call
 * runs its tool, the result goes back with the call's id and thought signature, and the
 * final text ends the run — generated, streamed, and across an approval suspension whose
 * state travels as JSON.
 */
import { describe, expect, it } from 'vitest';
import { agent } from '../../../../src/ai/agent/index.ts';
import { gemini } from '../../../../src/ai/model/index.ts';
import { tool } from '../../../../src/ai/tool/index.ts';
import { v } from '../../../../src/validate/index.ts';
import { useFakeProvider } from '../../../helpers/fake-provider.ts';

const fake = useFakeProvider();

const start = fake.modelOn((url) =>
  gemini({ model: 'gemini-test', apiKey: 'k', baseURL: url, initialRetryDelayMs: 1 }),
);

const answer = (parts: unknown[]) => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
});
const callWeather = answer([
  {
    functionCall: { id: 'fc_1', name: 'weather', args: { city: 'Oslo' } },
    thoughtSignature: 'U0lHLTE=',
  },
]);
const done = answer([{ text: 'It is 4 °C in Oslo.' }]);

function weatherTool(requiresApproval = false) {
  const cities: string[] = [];
  const t = tool({
    name: 'weather',
    description: 'Weather for a city',
    parameters: v.object({ city: v.string() }),
    requiresApproval,
    execute: ({ city }: { city: string }) => {
      cities.push(city);
      return `4 °C in ${city}`;
    },
  });
  return Object.assign(t, { cities });
}

/** The second request's history after the user turn: the call as sent, then its result. */
const callAndResult = [
  {
    role: 'model',
    parts: [
      {
        functionCall: { id: 'fc_1', name: 'weather', args: { city: 'Oslo' } },
        thoughtSignature: 'U0lHLTE=',
      },
    ],
  },
  {
    role: 'user',
    parts: [
      { functionResponse: { id: 'fc_1', name: 'weather', response: { output: '4 °C in Oslo' } } },
    ],
  },
];

describe('gemini: in the agent loop', () => {
  it('runs the tool Gemini asked for and sends the result back with id and signature', async () => {
    const model = await start({ json: callWeather }, { json: done });
    const weather = weatherTool();
    const result = await agent({ model, tools: [weather] }).generate('Weather in Oslo?');
    expect(result.status === 'done' && result.text).toBe('It is 4 °C in Oslo.');
    expect(weather.cities).toEqual(['Oslo']);
    expect(fake.server.requests[0].body.tools[0].functionDeclarations[0].name).toBe('weather');
    expect(fake.server.requests[1].body.contents.slice(1)).toEqual(callAndResult);
  });

  it('does the same with streamed turns', async () => {
    const sse = (value: object) => [`data: ${JSON.stringify(value)}`];
    const model = await start({ sse: sse(callWeather) }, { sse: sse(done) });
    const run = agent({ model, tools: [weatherTool()] }).stream('Weather in Oslo?');
    const texts: string[] = [];
    for await (const event of run) if (event.type === 'text-delta') texts.push(event.text);
    const result = await run.result;
    expect(result.status === 'done' && result.text).toBe('It is 4 °C in Oslo.');
    expect(texts.join('')).toBe('It is 4 °C in Oslo.');
    expect(fake.server.requests[1].path).toBe(
      '/v1beta/models/gemini-test:streamGenerateContent?alt=sse',
    );
    expect(fake.server.requests[1].body.contents.slice(1)).toEqual(callAndResult);
  });

  it('suspends for approval, and after a JSON round trip resumes with the signature intact', async () => {
    const model = await start({ json: callWeather }, { json: done });
    const weather = weatherTool(true);
    const bot = agent({ model, tools: [weather] });
    const first = await bot.generate('Weather in Oslo?');
    expect(first.status).toBe('suspended');
    if (first.status !== 'suspended') return;
    expect(first.pending).toMatchObject([
      { kind: 'approval', toolCallId: 'fc_1', toolName: 'weather' },
    ]);
    expect(weather.cities).toEqual([]);
    const saved = JSON.parse(JSON.stringify(first.state));
    const second = await bot.resume(saved, { fc_1: { approve: true } });
    expect(second.status === 'done' && second.text).toBe('It is 4 °C in Oslo.');
    expect(weather.cities).toEqual(['Oslo']);
    expect(fake.server.requests).toHaveLength(2);
    expect(fake.server.requests[1].body.contents.slice(1)).toEqual(callAndResult);
  });
});
