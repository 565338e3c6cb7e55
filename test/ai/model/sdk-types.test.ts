/**
 * The request bodies `openai()` and `anthropic()` send, written out as the official SDKs'
 * request parameter types. Each literal is type-checked against the SDK (so a field the
 * provider renames or removes fails `tsc`) and compared with the body captured from the
 * adapter (so the literal cannot drift from what is sent).
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { anthropic, type GenerateRequest, openai } from '../../../src/ai/model/index.ts';
import { useFakeProvider } from '../../helpers/fake-provider.ts';

const fake = useFakeProvider();

const weather = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};
const answer = {
  type: 'object',
  properties: { summary: { type: 'string' } },
  required: ['summary'],
  additionalProperties: false,
};

/** A request using every field the adapters map. */
const request: GenerateRequest = {
  system: 'Be brief.',
  messages: [
    { role: 'user', content: 'Weather in Oslo?' },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Look it up.', signature: 'sig-1', provider: 'anthropic' },
        { type: 'reasoning', text: '', redacted: 'opaque', provider: 'anthropic' },
        { type: 'tool_use', id: 'call_1', name: 'weather', args: { city: 'Oslo' } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', toolCallId: 'call_1', content: 'down', isError: true }],
    },
  ],
  tools: [weather],
  toolChoice: 'auto',
  maxTokens: 2048,
  output: { schema: answer, name: 'answer' },
  providerOptions: {
    openai: { seed: 7, top_p: 0.9, stop: ['END'], parallel_tool_calls: false },
    anthropic: { stop_sequences: ['END'], metadata: { user_id: 'u-1' } },
  },
};

const openaiBody: OpenAI.ChatCompletionCreateParamsNonStreaming = {
  model: 'gpt-test',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Oslo?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Oslo"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'Error: down' },
  ],
  tools: [{ type: 'function', function: weather }],
  tool_choice: 'auto',
  max_completion_tokens: 2048,
  reasoning_effort: 'low',
  response_format: {
    type: 'json_schema',
    json_schema: { name: 'answer', schema: answer, strict: true },
  },
  seed: 7,
  top_p: 0.9,
  stop: ['END'],
  parallel_tool_calls: false,
};

const anthropicBody: Anthropic.MessageCreateParamsNonStreaming = {
  model: 'claude-test',
  max_tokens: 2048,
  system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Look it up.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Oslo' } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'down', is_error: true }],
    },
  ],
  tools: [
    {
      name: 'weather',
      description: 'Weather for a city',
      input_schema: weather.parameters as Anthropic.Tool.InputSchema,
      cache_control: { type: 'ephemeral' },
    },
  ],
  tool_choice: { type: 'auto' },
  thinking: { type: 'enabled', budget_tokens: 1024 },
  output_config: { format: { type: 'json_schema', schema: answer } },
  stop_sequences: ['END'],
  metadata: { user_id: 'u-1' },
};

const openaiStreamBody: OpenAI.ChatCompletionCreateParamsStreaming = {
  ...openaiBody,
  stream: true,
  stream_options: { include_usage: true },
};

const anthropicStreamBody: Anthropic.MessageCreateParamsStreaming = {
  ...anthropicBody,
  stream: true,
};

const openaiReply = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: '{"summary":"4 °C"}', refusal: null },
      finish_reason: 'stop',
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
} satisfies OpenAI.ChatCompletion;

const anthropicReply = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content: [{ type: 'text', text: '{"summary":"4 °C"}' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};

describe('request bodies typed as the official SDKs’ request params', () => {
  it('openai() sends exactly the typed ChatCompletionCreateParams', async () => {
    await fake.serve([{ json: openaiReply }]);
    const model = openai({ model: 'gpt-test', apiKey: 'k', baseURL: fake.server.url });
    const result = await model.generate({ ...request, reasoning: { effort: 'low' } });
    expect(fake.server.requests[0].body).toEqual(openaiBody);
    expect(result.output).toEqual({ summary: '4 °C' });
  });

  it('anthropic() sends exactly the typed MessageCreateParams', async () => {
    await fake.serve([{ json: anthropicReply }]);
    const model = anthropic({
      model: 'claude-test',
      apiKey: 'k',
      baseURL: fake.server.url,
      cacheControl: true,
    });
    const result = await model.generate({ ...request, reasoning: { budgetTokens: 1024 } });
    expect(fake.server.requests[0].body).toEqual(anthropicBody);
    expect(result.output).toEqual({ summary: '4 °C' });
  });

  it('streamed requests add exactly the typed streaming fields', async () => {
    await fake.serve([
      {
        sse: ['data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}', 'data: [DONE]'],
      },
      { sse: ['event: message_stop\ndata: {"type":"message_stop"}'] },
    ]);
    const gpt = openai({ model: 'gpt-test', apiKey: 'k', baseURL: fake.server.url });
    for await (const _ of gpt.stream({ ...request, reasoning: { effort: 'low' } })) {
      // drain
    }
    const claude = anthropic({
      model: 'claude-test',
      apiKey: 'k',
      baseURL: fake.server.url,
      cacheControl: true,
    });
    for await (const _ of claude.stream({ ...request, reasoning: { budgetTokens: 1024 } })) {
      // drain
    }
    expect(fake.server.requests[0].body).toEqual(openaiStreamBody);
    expect(fake.server.requests[1].body).toEqual(anthropicStreamBody);
  });
});
