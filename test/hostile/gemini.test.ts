/**
 * Attack corpus for the Gemini adapter: what a caller sends is checked before any request
 * (tool names, tool choice, model names, provider options), and what a server answers —
 * malformed parts, counts and chunks — becomes a result or a clear error, never a crash
 * or a polluted prototype.
 */
import { describe, expect, it } from 'vitest';
import { type GenerateRequest, gemini, type StreamEvent } from '../../src/ai/model/index.ts';
import { type Reply, useFakeProvider } from '../helpers/fake-provider.ts';

const fake = useFakeProvider();

async function start(...replies: Reply[]) {
  await fake.serve(replies);
  return gemini({ model: 'g', apiKey: 'k', baseURL: fake.server.url, maxRetries: 0 });
}

const ask: GenerateRequest = { messages: [{ role: 'user', content: 'Hi' }] };
const parameters = { type: 'object', properties: {} };
const ok = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
};

describe('gemini: hostile requests', () => {
  it.each([
    ['empty', ''],
    ['a leading digit', '1tool'],
    ['a leading dash', '-tool'],
    ['a space', 'my tool'],
    ['a slash', 'a/b'],
    ['non-ASCII letters', 'wetter_für_stadt'],
    ['65 characters', `a${'b'.repeat(64)}`],
    ['a newline', 'tool\n'],
  ])('refuses a tool name with %s before sending anything', async (_, name) => {
    const model = await start({ json: ok });
    await expect(
      model.generate({ ...ask, tools: [{ name, description: 'd', parameters }] }),
    ).rejects.toThrow(
      `gemini: tools[0].name: expected 1 to 64 characters, starting with a letter or an underscore, then letters, digits, '_', '.', ':' or '-', received ${JSON.stringify(name)}`,
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it('accepts the edges of the documented rule', async () => {
    const names = ['_', 'a', `a${'b'.repeat(63)}`, 'ns:tool.v2-beta_1'];
    const model = await start({ json: ok });
    await model.generate({
      ...ask,
      tools: names.map((name) => ({ name, description: 'd', parameters })),
    });
    const declared = fake.server.requests[0].body.tools[0].functionDeclarations;
    expect(declared.map((d: { name: string }) => d.name)).toEqual(names);
  });

  it('refuses a toolChoice naming no given tool', async () => {
    const model = await start({ json: ok });
    await expect(
      model.generate({
        ...ask,
        tools: [{ name: 'a', description: 'd', parameters }],
        toolChoice: { name: 'b' },
      }),
    ).rejects.toThrow(
      'gemini: toolChoice.name: expected the name of one of request.tools, received "b"',
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it('refuses a model name that would leave the models path', () => {
    for (const model of ['..', '../../v1/files', 'models/../../x', 'a//b']) {
      expect(() => gemini({ model, apiKey: 'k' })).toThrow(/options\.model: expected a model name/);
    }
  });

  it('refuses prototype keys in providerOptions.gemini and pollutes nothing', async () => {
    const model = await start({ json: ok });
    const extra = JSON.parse('{"generationConfig":{"__proto__":{"polluted":true}}}');
    await expect(model.generate({ ...ask, providerOptions: { gemini: extra } })).rejects.toThrow(
      'gemini: providerOptions.gemini.generationConfig: expected ordinary keys, received "__proto__"',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expect(
      model.generate({ ...ask, providerOptions: { gemini: [] as never } }),
    ).rejects.toThrow(
      'gemini: request.providerOptions.gemini: expected an object of request body fields, received array',
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it('refuses a tool_result whose call is not in the conversation (Gemini needs its name)', async () => {
    const model = await start({ json: ok });
    await expect(
      model.generate({
        messages: [
          { role: 'user', content: [{ type: 'tool_result', toolCallId: 'nope', content: 'x' }] },
        ],
      }),
    ).rejects.toThrow(
      'gemini: messages[0]: tool_result for "nope": expected a tool_use with that id in an earlier assistant message, received none',
    );
  });

  it('ignores provider metadata of the wrong shape instead of sending it', async () => {
    const model = await start({ json: ok });
    await model.generate({
      messages: [
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'c',
              name: 'a',
              args: {},
              providerMetadata: { gemini: { id: 7, thoughtSignature: { x: 1 } } },
            },
          ],
        },
      ],
    });
    expect(fake.server.requests[0].body.contents[0].parts).toEqual([
      { functionCall: { name: 'a', args: {} } },
    ]);
  });
});

describe('gemini: hostile responses', () => {
  it('reads malformed parts, names, signatures and counts without crashing', async () => {
    const model = await start({
      json: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                null,
                7,
                'text',
                { text: 42 },
                { text: 'ok', thoughtSignature: 99 },
                {
                  functionCall: { name: { evil: true }, args: JSON.parse('{"__proto__":{"x":1}}') },
                },
                { functionCall: { id: 5, name: 'f' } },
              ],
            },
            finishReason: 'STOP',
          },
          'second',
        ],
        usageMetadata: {
          promptTokenCount: -5,
          candidatesTokenCount: 'many',
          thoughtsTokenCount: Number.MAX_VALUE,
          totalTokenCount: null,
        },
      },
    });
    const result = await model.generate(ask);
    expect(result.text).toBe('ok');
    expect(result.toolCalls.map((c) => c.name)).toEqual(['', 'f']);
    expect(result.toolCalls[1].id).toMatch(/^gemini_/);
    expect(result.toolCalls[1].args).toEqual({});
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    // Counts that are not counts are estimated, a bad part left out (decision 176).
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.reasoningTokens).toBeUndefined();
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
    expect(result.warnings?.at(-1)?.message).toContain('inputTokens is estimated');
  });

  it('ends a stream whose chunk is not JSON with an error event', async () => {
    const model = await start({ sse: ['data: {"candidates": [', 'data: 12'] });
    const events: StreamEvent[] = [];
    for await (const event of model.stream(ask)) events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0].type === 'error' && events[0].error.message).toMatch(
      /^gemini: a stream chunk was not a JSON object: \{"candidates": \[/,
    );
  });

  it('rejects a body that is JSON but not an object', async () => {
    const model = await start({ json: [1, 2] });
    await expect(model.generate(ask)).rejects.toThrow('gemini: the response was not a JSON object');
  });
});
