/**
 * Every provider factory and every request refuses a key it does not know, with a
 * ModelError (code INVALID_ARGUMENT) naming it and the closest known name (issue 23 item 3).
 */
import { describe, expect, it } from 'vitest';
import {
  anthropic,
  type GenerateRequest,
  gemini,
  ModelError,
  openai,
  scriptedModel,
} from '../../../../src/ai/model/index.ts';

function refusal(run: () => unknown): ModelError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', retryable: false });
    return error as ModelError;
  }
  throw new Error('expected a refusal');
}

const ask: GenerateRequest = { messages: [{ role: 'user', content: 'hi' }] };

describe('provider factories', () => {
  it('anthropic({ thinking }) points to the reasoning request option', () => {
    const error = refusal(() => anthropic({ model: 'c', thinking: { type: 'enabled' } } as never));
    expect(error.provider).toBe('anthropic');
    expect(error.message).toMatch(
      /^anthropic\(options\): unknown option "thinking"; did you mean "reasoning", a request option \(generate\(\{ reasoning: \{ budgetTokens \} \}\) or agent\(\{ reasoning \}\)\)\? expected one of maxRetries, .*baseURL, headers, limits, maxAnswerChars, maxTokens, version, cacheControl$/,
    );
  });

  it('openai({ api }) picks one of the two APIs; a misspelt key or an unknown API is refused', () => {
    expect(openai({ model: 'm', api: 'responses' }).id).toBe('openai:m');
    expect(refusal(() => openai({ model: 'm', apis: 'responses' } as never)).message).toMatch(
      /^openai\(options\): unknown option "apis"; did you mean "api"\? expected one of /,
    );
    expect(() => openai({ model: 'm', api: 'completions' as never })).toThrow(
      "openai(options).api: expected 'responses' or 'chat'",
    );
  });

  it.each([
    [() => openai({ model: 'm', baseUrl: 'http://x' } as never), 'openai', 'baseUrl', '"baseURL"'],
    [
      () => openai({ model: 'm', reasoning_effort: 'low' } as never),
      'openai',
      'reasoning_effort',
      '"reasoningEffort"',
    ],
    [() => openai({ model: 'm', timeout: 5 } as never), 'openai', 'timeout', '"timeouts"'],
    [() => anthropic({ model: 'm', maxToken: 5 } as never), 'anthropic', 'maxToken', '"maxTokens"'],
    [() => gemini({ model: 'm', maxRetrys: 1 } as never), 'gemini', 'maxRetrys', '"maxRetries"'],
    [() => scriptedModel([], { ids: 'x' } as never), 'scriptedModel', 'ids', '"id"'],
  ])('%#: %s refuses %s, suggesting %s', (make, provider, key, suggestion) => {
    const error = refusal(make);
    expect(error.provider).toBe(provider);
    expect(error.message).toContain(`unknown option "${key}"; did you mean ${suggestion}?`);
  });

  it('request fields on a factory point to where they go', () => {
    expect(refusal(() => openai({ model: 'm', temperature: 0 } as never)).message).toContain(
      'unknown option "temperature"; did you mean the request option temperature (generate({ temperature }) or agent({ temperature }))?',
    );
    expect(refusal(() => gemini({ model: 'm', safetySettings: [] } as never)).message).toContain(
      'did you mean the request option providerOptions ({ providerOptions: { gemini: { safetySettings } } })?',
    );
  });

  it('checks the unknown key before anything else, so a misspelt model is named', () => {
    expect(refusal(() => openai({ modle: 'gpt' } as never)).message).toContain(
      'unknown option "modle"; did you mean "model"?',
    );
  });
});

describe('requests', () => {
  const models = [
    openai({ model: 'm', baseURL: 'http://127.0.0.1:9' }),
    anthropic({ model: 'm', apiKey: 'k', baseURL: 'http://127.0.0.1:9' }),
    gemini({ model: 'm', apiKey: 'k', baseURL: 'http://127.0.0.1:9' }),
  ];

  it.each(models)('$id: a misspelt field is refused before anything is sent', async (model) => {
    const request = { ...ask, maxToken: 10 } as GenerateRequest;
    await expect(model.generate(request)).rejects.toMatchObject({
      name: 'ModelError',
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining(
        'request: unknown option "maxToken"; did you mean "maxTokens"?',
      ),
    });
    const events = [];
    for await (const event of model.stream(request)) events.push(event);
    expect(events).toEqual([
      { type: 'error', error: expect.objectContaining({ code: 'INVALID_ARGUMENT' }) },
    ]);
  });

  it('checks reasoning and output fields, with other libraries’ names as hints', async () => {
    const [model] = models;
    await expect(
      model.generate({ ...ask, reasoning: { effort: 'low', budget: 10 } } as never),
    ).rejects.toThrow(
      'openai: request.reasoning: unknown option "budget"; did you mean "budgetTokens"? expected one of effort, budgetTokens',
    );
    await expect(
      model.generate({ ...ask, output: { schema: { type: 'object' }, nmae: 'x' } } as never),
    ).rejects.toThrow('openai: request.output: unknown option "nmae"; did you mean "name"?');
    await expect(model.generate({ ...ask, thinking: {} } as never)).rejects.toThrow(
      'openai: request: unknown option "thinking"; did you mean "reasoning" ({ reasoning: { budgetTokens } })?',
    );
  });

  it('providerOptions stays the way to send what fino does not model', async () => {
    const model = scriptedModel(['ok']);
    const result = await model.generate({ ...ask, providerOptions: { openai: { seed: 1 } } });
    expect(result.text).toBe('ok');
  });

  it('scriptedModel checks the requests it gets, and its scripted replies', async () => {
    const model = scriptedModel(['ok', { txt: 'typo' } as never]);
    await expect(model.generate({ ...ask, tool: [] } as never)).rejects.toThrow(
      'scriptedModel: request: unknown option "tool"; did you mean "tools"?',
    );
    expect(model.requests).toHaveLength(1);
    expect((await model.generate(ask)).text).toBe('ok');
    await expect(model.generate(ask)).rejects.toThrow(
      'scriptedModel: turn 1: unknown option "txt"; did you mean "text"?',
    );
  });
});
