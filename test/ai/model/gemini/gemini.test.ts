import { describe, expect, it } from 'vitest';
import {
  type GenerateRequest,
  gemini,
  ModelError,
  type StreamEvent,
} from '../../../../src/ai/model/index.ts';
import { collect, sseData, useFakeProvider } from '../../../helpers/fake-provider.ts';

const fake = useFakeProvider();

const start = fake.modelOn((url) =>
  gemini({ model: 'gemini-test', apiKey: 'AIza-test', baseURL: url, initialRetryDelayMs: 1 }),
);

/** A documented `GenerateContentResponse` with one candidate. */
const response = (parts: unknown[], finishReason = 'STOP', usage: object = usageMetadata) => ({
  candidates: [{ content: { parts, role: 'model' }, finishReason, index: 0 }],
  usageMetadata: usage,
  modelVersion: 'gemini-test',
  responseId: 'resp_1',
});
const usageMetadata = {
  promptTokenCount: 10,
  candidatesTokenCount: 4,
  totalTokenCount: 14,
  promptTokensDetails: [{ modality: 'TEXT', tokenCount: 10 }],
};

const weatherTool = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const ask: GenerateRequest = { messages: [{ role: 'user', content: 'Weather in Oslo?' }] };

describe('gemini: generate', () => {
  it('sends the documented generateContent request', async () => {
    const model = await start({ json: response([{ text: 'ok' }]) });
    await model.generate({
      system: 'Be brief.',
      messages: [
        { role: 'system', content: 'Use metric units.' },
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'call_1', name: 'weather', args: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here.' },
            { type: 'tool_result', toolCallId: 'call_1', content: '4 °C' },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'image', mediaType: 'image/png', data: 'iVBOR' }],
        },
      ],
      tools: [weatherTool],
      toolChoice: 'auto',
      maxTokens: 100,
      temperature: 0,
    });
    const sent = fake.server.requests[0];
    expect(sent.path).toBe('/v1beta/models/gemini-test:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('AIza-test');
    expect(sent.body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.\n\nUse metric units.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Checking.' },
            { functionCall: { name: 'weather', args: { city: 'Oslo' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'weather', response: { output: '4 °C' } } },
            { text: 'Here.' },
            { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'weather',
              description: 'Weather for a city',
              parameters: {
                type: 'OBJECT',
                properties: { city: { type: 'STRING' } },
                required: ['city'],
              },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: { maxOutputTokens: 100, temperature: 0 },
    });
  });

  it('sends the media of a tool result as inline data after it, with a warning', async () => {
    const model = await start({ json: response([{ text: 'ok' }]) });
    const result = await model.generate({
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'shot', args: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'c1',
              content: [
                { type: 'text', text: 'Screenshot:' },
                { type: 'image', mediaType: 'image/png', data: 'iVBOR' },
                {
                  type: 'resource',
                  uri: 'file:///a.pdf',
                  mediaType: 'application/pdf',
                  data: 'JVBE',
                },
                { type: 'resource', uri: 'file:///b.txt', text: 'notes' },
              ],
            },
          ],
        },
      ],
    });
    expect(fake.server.requests[0].body.contents[1]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'shot', response: { output: 'Screenshot:\nnotes' } } },
        { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
        { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } },
      ],
    });
    expect(result.warnings).toEqual([
      {
        message:
          'messages[1]: tool_result c1: its image, resource parts follow as inline data in the same user turn',
      },
    ]);
  });

  it('reads text, usage and the finish reason', async () => {
    const model = await start({
      json: response([{ text: 'Four ' }, { text: 'degrees.' }], 'STOP', {
        promptTokenCount: 10,
        candidatesTokenCount: 4,
        thoughtsTokenCount: 6,
        cachedContentTokenCount: 8,
        toolUsePromptTokenCount: 2,
        totalTokenCount: 22,
      }),
    });
    const result = await model.generate(ask);
    expect(result).toEqual({
      message: { role: 'assistant', content: [{ type: 'text', text: 'Four degrees.' }] },
      text: 'Four degrees.',
      toolCalls: [],
      stopReason: 'end',
      rawStopReason: 'STOP',
      usage: {
        inputTokens: 12,
        outputTokens: 10,
        totalTokens: 22,
        cachedInputTokens: 8,
        reasoningTokens: 6,
      },
    });
    expect(model.id).toBe('gemini:gemini-test');
  });

  it('reads parallel function calls with their ids and the signature on the first only', async () => {
    const model = await start({
      json: response([
        {
          functionCall: { id: 'fc_1', name: 'weather', args: { city: 'Oslo' } },
          thoughtSignature: 'c2lnLTE=',
        },
        { functionCall: { id: 'fc_2', name: 'weather', args: { city: 'Rome' } } },
      ]),
    });
    const result = await model.generate({ ...ask, tools: [weatherTool] });
    expect(result.stopReason).toBe('tool_calls');
    expect(result.rawStopReason).toBe('STOP');
    expect(result.toolCalls).toEqual([
      { id: 'fc_1', name: 'weather', args: { city: 'Oslo' } },
      { id: 'fc_2', name: 'weather', args: { city: 'Rome' } },
    ]);
    expect(result.message.content).toEqual([
      {
        type: 'tool_use',
        id: 'fc_1',
        name: 'weather',
        args: { city: 'Oslo' },
        providerMetadata: { gemini: { id: 'fc_1', thoughtSignature: 'c2lnLTE=' } },
      },
      {
        type: 'tool_use',
        id: 'fc_2',
        name: 'weather',
        args: { city: 'Rome' },
        providerMetadata: { gemini: { id: 'fc_2' } },
      },
    ]);
  });

  it('makes up distinct ids for calls Gemini sent without one, and does not send them back', async () => {
    const model = await start(
      {
        json: response([
          { functionCall: { name: 'weather', args: { city: 'Oslo' } } },
          { functionCall: { name: 'weather', args: { city: 'Rome' } } },
        ]),
      },
      { json: response([{ text: 'Cold and mild.' }]) },
    );
    const first = await model.generate({ ...ask, tools: [weatherTool] });
    const [a, b] = first.toolCalls;
    expect(a.id).toMatch(/^gemini_[0-9a-f-]{36}$/);
    expect(b.id).not.toBe(a.id);
    expect(first.message.content).toEqual([
      { type: 'tool_use', id: a.id, name: 'weather', args: { city: 'Oslo' } },
      { type: 'tool_use', id: b.id, name: 'weather', args: { city: 'Rome' } },
    ]);
    await model.generate({
      messages: [
        ...ask.messages,
        first.message,
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolCallId: b.id, content: '18 °C' },
            { type: 'tool_result', toolCallId: a.id, content: 'timeout', isError: true },
          ],
        },
      ],
      tools: [weatherTool],
    });
    expect(fake.server.requests[1].body.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'weather', args: { city: 'Oslo' } } },
          { functionCall: { name: 'weather', args: { city: 'Rome' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'weather', response: { output: '18 °C' } } },
          { functionResponse: { name: 'weather', response: { error: 'timeout' } } },
        ],
      },
    ]);
  });

  it('returns ids and thought signatures unchanged with their calls, and echoes ids in responses', async () => {
    const model = await start(
      {
        json: response([
          { text: 'Let me look.' },
          {
            functionCall: { id: 'fc_9', name: 'weather', args: { city: 'Oslo' } },
            thoughtSignature: 'U0lHTkFUVVJF',
          },
        ]),
      },
      { json: response([{ text: 'It is 4 °C.', thoughtSignature: 'RklOQUw=' }]) },
      { json: response([{ text: 'Bye.' }]) },
    );
    const messages: GenerateRequest['messages'] = [...ask.messages];
    const first = await model.generate({ messages, tools: [weatherTool] });
    messages.push(first.message, {
      role: 'user',
      content: [{ type: 'tool_result', toolCallId: 'fc_9', content: '4 °C' }],
    });
    // Through JSON, as a saved run state would carry the conversation.
    const second = await model.generate({
      messages: JSON.parse(JSON.stringify(messages)),
      tools: [weatherTool],
    });
    expect(fake.server.requests[1].body.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Let me look.' },
          {
            functionCall: { id: 'fc_9', name: 'weather', args: { city: 'Oslo' } },
            thoughtSignature: 'U0lHTkFUVVJF',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'fc_9', name: 'weather', response: { output: '4 °C' } } },
        ],
      },
    ]);
    // A signature on a text part is kept after that text, and goes back on it.
    expect(second.message.content).toEqual([
      { type: 'text', text: 'It is 4 °C.' },
      { type: 'reasoning', text: '', signature: 'RklOQUw=', provider: 'gemini' },
    ]);
    expect(second.text).toBe('It is 4 °C.');
    messages.push(second.message, { role: 'user', content: 'Thanks.' });
    await model.generate({ messages });
    expect(fake.server.requests[2].body.contents.slice(3)).toEqual([
      { role: 'model', parts: [{ text: 'It is 4 °C.', thoughtSignature: 'RklOQUw=' }] },
      { role: 'user', parts: [{ text: 'Thanks.' }] },
    ]);
  });

  it('reads thought summaries as reasoning parts and sends them back as thoughts', async () => {
    const model = await start(
      {
        json: response(
          [
            { text: 'The user wants ', thought: true },
            { text: 'a greeting.', thought: true, thoughtSignature: 'VEhPVUdIVA==' },
            { text: 'Hello!' },
          ],
          'STOP',
          {
            promptTokenCount: 3,
            candidatesTokenCount: 2,
            thoughtsTokenCount: 40,
            totalTokenCount: 45,
          },
        ),
      },
      { json: response([{ text: 'ok' }]) },
    );
    const result = await model.generate({
      ...ask,
      reasoning: { budgetTokens: 1024 },
    });
    expect(fake.server.requests[0].body.generationConfig).toEqual({
      thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
    });
    expect(result.message.content).toEqual([
      {
        type: 'reasoning',
        text: 'The user wants a greeting.',
        signature: 'VEhPVUdIVA==',
        provider: 'gemini',
      },
      { type: 'text', text: 'Hello!' },
    ]);
    expect(result.text).toBe('Hello!');
    expect(result.usage).toEqual({
      inputTokens: 3,
      outputTokens: 42,
      totalTokens: 45,
      reasoningTokens: 40,
    });
    await model.generate({
      messages: [
        ...ask.messages,
        result.message,
        // Another provider's reasoning is not Gemini's to read: it is not sent.
        { role: 'assistant', content: [{ type: 'reasoning', text: 'x', provider: 'anthropic' }] },
        { role: 'user', content: 'And?' },
      ],
    });
    expect(fake.server.requests[1].body.contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'The user wants a greeting.', thought: true, thoughtSignature: 'VEhPVUdIVA==' },
        { text: 'Hello!' },
      ],
    });
  });

  it('maps reasoning effort to a thinking level, and warns when a budget wins over it', async () => {
    const model = await start(
      { json: response([{ text: 'a' }]) },
      { json: response([{ text: 'b' }]) },
    );
    await model.generate({ ...ask, reasoning: { effort: 'low' } });
    expect(fake.server.requests[0].body.generationConfig.thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingLevel: 'LOW',
    });
    const second = await model.generate({
      ...ask,
      reasoning: { effort: 'high', budgetTokens: 512 },
    });
    expect(fake.server.requests[1].body.generationConfig.thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingBudget: 512,
    });
    expect(second.warnings).toEqual([
      {
        message:
          'reasoning.effort "high" not sent: Gemini takes a thinking budget or a level, not both, and budgetTokens was given',
      },
    ]);
  });

  it('asks for structured output with responseMimeType and responseSchema, with schema warnings', async () => {
    const model = await start({ json: response([{ text: '{"city":"Oslo","temp":4}' }]) });
    const result = await model.generate({
      ...ask,
      output: {
        schema: {
          type: 'object',
          properties: {
            city: { type: 'string', format: 'hostname' },
            temp: { type: 'number' },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['city', 'temp'],
          additionalProperties: false,
        },
      },
    });
    expect(fake.server.requests[0].body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'OBJECT',
        properties: {
          city: { type: 'STRING' },
          temp: { type: 'NUMBER' },
          tags: { type: 'ARRAY', items: { type: 'STRING' } },
        },
        required: ['city', 'temp'],
      },
    });
    expect(result.output).toEqual({ city: 'Oslo', temp: 4 });
    expect(result.warnings).toEqual([
      {
        path: '/properties/city',
        keyword: 'format',
        message: 'output schema: format "hostname" is not supported: removed',
      },
      {
        path: '',
        keyword: 'additionalProperties',
        message:
          'output schema: additionalProperties: false is not supported: removed; the model may send keys beyond the listed properties (the tool still validates its arguments against the original schema)',
      },
    ]);
  });

  it('reports tool schema conversion warnings with the tool name', async () => {
    const model = await start({ json: response([{ text: 'ok' }]) });
    const result = await model.generate({
      ...ask,
      tools: [
        {
          name: 'pick',
          description: 'Pick one',
          parameters: {
            type: 'object',
            properties: { v: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
          },
        },
      ],
    });
    expect(fake.server.requests[0].body.tools[0].functionDeclarations[0].parameters).toEqual({
      type: 'OBJECT',
      properties: { v: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] } },
    });
    expect(result.warnings).toEqual([
      {
        tool: 'pick',
        path: '/properties/v',
        keyword: 'oneOf',
        message: 'oneOf became anyOf: exclusivity is not enforced',
      },
    ]);
  });

  it('maps tool choice to functionCallingConfig modes', async () => {
    const model = await start(
      { json: response([{ text: 'a' }]) },
      { json: response([{ text: 'b' }]) },
      { json: response([{ text: 'c' }]) },
    );
    const other = { ...weatherTool, name: 'clock' };
    await model.generate({ ...ask, tools: [weatherTool, other], toolChoice: 'required' });
    await model.generate({ ...ask, tools: [weatherTool, other], toolChoice: 'none' });
    await model.generate({ ...ask, tools: [weatherTool, other], toolChoice: { name: 'clock' } });
    expect(fake.server.requests.map((r) => r.body.toolConfig)).toEqual([
      { functionCallingConfig: { mode: 'ANY' } },
      { functionCallingConfig: { mode: 'NONE' } },
      { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['clock'] } },
    ]);
  });

  it('maps finish reasons: MAX_TOKENS, safety and recitation, malformed calls, blocked prompts', async () => {
    const model = await start(
      { json: response([{ text: 'Trunc' }], 'MAX_TOKENS') },
      { json: response([], 'SAFETY') },
      { json: response([], 'RECITATION') },
      { json: response([], 'MALFORMED_FUNCTION_CALL') },
      {
        json: {
          promptFeedback: { blockReason: 'OTHER' },
          usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
        },
      },
    );
    const reasons = [];
    for (let i = 0; i < 5; i++) {
      const result = await model.generate(ask);
      reasons.push([result.stopReason, result.rawStopReason]);
    }
    expect(reasons).toEqual([
      ['max_tokens', 'MAX_TOKENS'],
      ['content_filter', 'SAFETY'],
      ['content_filter', 'RECITATION'],
      ['other', 'MALFORMED_FUNCTION_CALL'],
      ['content_filter', 'OTHER'],
    ]);
  });

  it('merges providerOptions.gemini into the body, objects key by key', async () => {
    const model = await start({ json: response([{ text: 'ok' }]) });
    await model.generate({
      ...ask,
      maxTokens: 50,
      providerOptions: {
        gemini: {
          generationConfig: { topK: 5, thinkingConfig: { thinkingBudget: 0 } },
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        },
        openai: { seed: 1 },
      },
    });
    const { body } = fake.server.requests[0];
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 50,
      topK: 5,
      thinkingConfig: { thinkingBudget: 0 },
    });
    expect(body.safetySettings).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
    ]);
    expect(body.seed).toBeUndefined();
  });

  it('turns a function call whose args are not an object into argsError', async () => {
    const model = await start({
      json: response([{ functionCall: { id: 'fc_1', name: 'weather', args: 'Oslo' } }]),
    });
    const result = await model.generate({ ...ask, tools: [weatherTool] });
    expect(result.toolCalls[0]).toEqual({
      id: 'fc_1',
      name: 'weather',
      args: 'Oslo',
      argsError: 'Expected the arguments as a JSON object, received "Oslo"',
    });
  });

  it('uses models/… and tunedModels/… names as given, escaping each segment', async () => {
    await fake.serve([{ json: response([{ text: 'a' }]) }, { json: response([{ text: 'b' }]) }]);
    const options = { apiKey: 'k', baseURL: `${fake.server.url}/` };
    await gemini({ ...options, model: 'tunedModels/my-model' }).generate(ask);
    await gemini({ ...options, model: 'x?y#z' }).generate(ask);
    expect(fake.server.requests.map((r) => r.path)).toEqual([
      '/v1beta/tunedModels/my-model:generateContent',
      '/v1beta/models/x%3Fy%23z:generateContent',
    ]);
    for (const model of ['../x', 'models/..', 'a/b/c', 'models/']) {
      expect(() => gemini({ ...options, model })).toThrow(
        `gemini(options): options.model: expected a model name like 'gemini-2.5-flash' or 'tunedModels/<id>', received ${JSON.stringify(model)}`,
      );
    }
  });
});

describe('gemini: stream', () => {
  it('streams text, thoughts and a function call from documented SSE chunks', async () => {
    const model = await start({
      sse: [
        sseData({
          candidates: [
            { content: { parts: [{ text: 'Thinking', thought: true }], role: 'model' }, index: 0 },
          ],
          usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
        }),
        sseData({
          candidates: [{ content: { parts: [{ text: 'Let me ' }], role: 'model' }, index: 0 }],
          usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
        }),
        sseData({
          candidates: [{ content: { parts: [{ text: 'check.' }], role: 'model' }, index: 0 }],
        }),
        sseData({
          candidates: [
            {
              content: {
                parts: [
                  {
                    functionCall: { id: 'fc_1', name: 'weather', args: { city: 'Oslo' } },
                    thoughtSignature: 'U0lH',
                  },
                  { functionCall: { id: 'fc_2', name: 'weather', args: { city: 'Rome' } } },
                ],
                role: 'model',
              },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: {
            promptTokenCount: 9,
            candidatesTokenCount: 20,
            thoughtsTokenCount: 5,
            totalTokenCount: 34,
          },
        }),
      ],
    });
    const events = await collect(model.stream({ ...ask, tools: [weatherTool] }));
    expect(fake.server.requests[0].path).toBe(
      '/v1beta/models/gemini-test:streamGenerateContent?alt=sse',
    );
    expect(events.map((e) => e.type)).toEqual([
      'reasoning-delta',
      'text-delta',
      'text-delta',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'usage',
      'stop',
    ]);
    expect(events[3]).toEqual({ type: 'tool-call-start', id: 'fc_1', name: 'weather', index: 0 });
    expect(events[4]).toEqual({
      type: 'tool-call-delta',
      id: 'fc_1',
      argsText: '{"city":"Oslo"}',
      index: 0,
    });
    expect(events[8]).toEqual({
      type: 'tool-call-end',
      index: 1,
      call: { id: 'fc_2', name: 'weather', args: { city: 'Rome' } },
    });
    expect(events[9]).toEqual({
      type: 'usage',
      usage: { inputTokens: 9, outputTokens: 25, totalTokens: 34, reasoningTokens: 5 },
    });
    const stop = events[10];
    expect(stop.type === 'stop' && stop.result).toMatchObject({
      text: 'Let me check.',
      stopReason: 'tool_calls',
      message: {
        content: [
          { type: 'reasoning', text: 'Thinking', provider: 'gemini' },
          { type: 'text', text: 'Let me check.' },
          {
            type: 'tool_use',
            id: 'fc_1',
            providerMetadata: { gemini: { thoughtSignature: 'U0lH' } },
          },
          { type: 'tool_use', id: 'fc_2' },
        ],
      },
    });
  });

  it('keeps a signature that arrives alone in an empty final text part', async () => {
    const model = await start(
      {
        sse: [
          sseData({ candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' } }] }),
          sseData({
            candidates: [
              {
                content: { parts: [{ text: '', thoughtSignature: 'RU5E' }], role: 'model' },
                finishReason: 'STOP',
              },
            ],
            usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3 },
          }),
        ],
      },
      { json: response([{ text: 'ok' }]) },
    );
    const events = await collect(model.stream(ask));
    const stop = events.at(-1);
    if (stop?.type !== 'stop') throw new Error('no stop');
    expect(stop.result.message.content).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'reasoning', text: '', signature: 'RU5E', provider: 'gemini' },
    ]);
    await model.generate({
      messages: [...ask.messages, stop.result.message, { role: 'user', content: 'x' }],
    });
    expect(fake.server.requests[1].body.contents[1]).toEqual({
      role: 'model',
      parts: [{ text: 'Hi', thoughtSignature: 'RU5E' }],
    });
  });

  it('ends with a retryable ModelError when the stream stops before a finishReason', async () => {
    const model = await start({
      sse: [sseData({ candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' } }] })],
    });
    const events = await collect(model.stream(ask));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'error']);
    const last = events[1];
    expect(last.type === 'error' && last.error).toMatchObject({
      name: 'ModelError',
      retryable: true,
      message: 'gemini: the stream ended before a finishReason',
    });
  });

  it('reports an error object sent mid-stream', async () => {
    const model = await start({
      sse: [
        sseData({ candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' } }] }),
        sseData({
          error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' },
        }),
      ],
    });
    const events = await collect(model.stream(ask));
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error).toMatchObject({
      name: 'ModelError',
      providerMessage: 'The model is overloaded.',
      code: 'UNAVAILABLE',
    });
  });

  it('ends with an AbortError event when aborted mid-stream', async () => {
    const model = await start({
      sse: [sseData({ candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' } }] })],
      hang: true,
    });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of model.stream({ ...ask, signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'error']);
    expect(events[1].type === 'error' && events[1].error.name).toBe('AbortError');
  });
});

describe('gemini: errors and retries', () => {
  it("turns 400 into a ModelError with Google's message and status", async () => {
    const model = await start({
      status: 400,
      json: {
        error: {
          code: 400,
          message: 'Function call is missing a thought_signature in functionCall parts.',
          status: 'INVALID_ARGUMENT',
        },
      },
    });
    const error = await model.generate(ask).catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      provider: 'gemini',
      status: 400,
      code: 'INVALID_ARGUMENT',
      providerMessage: 'Function call is missing a thought_signature in functionCall parts.',
      retryable: false,
    });
    expect(error.message).toBe(
      'gemini: 400 Function call is missing a thought_signature in functionCall parts.',
    );
    expect(fake.server.requests).toHaveLength(1);
  });

  it('retries 429 RESOURCE_EXHAUSTED and 503 UNAVAILABLE, then succeeds', async () => {
    const model = await start(
      {
        status: 429,
        headers: { 'retry-after': '0' },
        json: { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } },
      },
      {
        status: 503,
        json: { error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } },
      },
      { json: response([{ text: 'ok' }]) },
    );
    expect((await model.generate(ask)).text).toBe('ok');
    expect(fake.server.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a retryable ModelError', async () => {
    await fake.serve([
      { status: 500, json: { error: { code: 500, message: 'Internal', status: 'INTERNAL' } } },
      { status: 500, json: { error: { code: 500, message: 'Internal', status: 'INTERNAL' } } },
    ]);
    const model = gemini({
      model: 'g',
      apiKey: 'k',
      baseURL: fake.server.url,
      maxRetries: 1,
      initialRetryDelayMs: 1,
    });
    await expect(model.generate(ask)).rejects.toMatchObject({
      status: 500,
      code: 'INTERNAL',
      retryable: true,
      message: 'gemini: 500 Internal after 1 retry',
    });
    expect(fake.server.requests).toHaveLength(2);
  });

  it('rejects a response without candidates or a block reason', async () => {
    const model = await start({ json: { usageMetadata: {} } });
    await expect(model.generate(ask)).rejects.toThrow('gemini: the response has no candidates');
  });

  it('needs a model name', () => {
    expect(() => gemini({} as never)).toThrow(
      'gemini(options).model: expected a non-empty model name, received undefined',
    );
  });

  it('takes the key from options, else GOOGLE_API_KEY, else GEMINI_API_KEY', async () => {
    const saved = { g: process.env.GOOGLE_API_KEY, m: process.env.GEMINI_API_KEY };
    delete process.env.GOOGLE_API_KEY;
    delete process.env.GEMINI_API_KEY;
    try {
      await fake.serve([{ json: response([{ text: 'a' }]) }, { json: response([{ text: 'b' }]) }]);
      const model = gemini({ model: 'g', baseURL: fake.server.url });
      await expect(model.generate(ask)).rejects.toThrow(
        'gemini: no API key: pass { apiKey } or set the GOOGLE_API_KEY or GEMINI_API_KEY environment variable',
      );
      expect(fake.server.requests).toHaveLength(0);
      process.env.GEMINI_API_KEY = 'from-gemini';
      await model.generate(ask);
      process.env.GOOGLE_API_KEY = 'from-google';
      await model.generate(ask);
      expect(fake.server.requests.map((r) => r.headers['x-goog-api-key'])).toEqual([
        'from-gemini',
        'from-google',
      ]);
    } finally {
      for (const [name, value] of [
        ['GOOGLE_API_KEY', saved.g],
        ['GEMINI_API_KEY', saved.m],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
