/**
 * The request bodies `openai({ api: 'responses' })` sends, written out as the official
 * SDK's `ResponseCreateParams`: each literal is type-checked against the `openai`
 * package (a field OpenAI renames or removes fails `tsc`) and compared with the body
 * captured from the adapter (so the literal cannot drift from what is sent).
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { type GenerateRequest, openai } from '../../../../src/ai/model/index.ts';
import { useFakeProvider } from '../../../helpers/fake-provider.ts';
import { message, response } from './responses-wire.ts';

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
const thought = {
  type: 'reasoning',
  id: 'rs_1',
  summary: [{ type: 'summary_text', text: 'Look it up.' }],
  encrypted_content: 'gAAAA-opaque',
} satisfies OpenAI.Responses.ResponseReasoningItem;
const approvalRequest = {
  type: 'mcp_approval_request',
  id: 'mcpr_1',
  server_label: 'deepwiki',
  name: 'ask_question',
  arguments: '{}',
} satisfies OpenAI.Responses.ResponseInputItem.McpApprovalRequest;
const image = { type: 'image' as const, mediaType: 'image/png', data: 'iVBORw0K' };

/** A request using every field the adapter maps. */
const request: GenerateRequest = {
  system: 'Be brief.',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }, image] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Anthropic thinking', signature: 's', provider: 'anthropic' },
        {
          type: 'reasoning',
          text: 'Look it up.',
          provider: 'openai',
          providerMetadata: { openai: { item: thought } },
        },
        { type: 'tool_use', id: 'call_1', name: 'weather', args: { city: 'Oslo' } },
        {
          type: 'tool_use',
          id: 'mcpr_1',
          name: 'mcp_deepwiki',
          args: {},
          providerMetadata: { openai: { item: approvalRequest } },
        },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', toolCallId: 'call_1', content: 'down', isError: true },
        { type: 'tool_result', toolCallId: 'mcpr_1', content: 'Approved.' },
      ],
    },
    { role: 'assistant', content: 'It is down.' },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolCallId: 'call_2',
          content: [{ type: 'text', text: 'map' }, image],
        },
      ],
    },
  ],
  tools: [weather],
  providerTools: [
    openai.tools.webSearch({ searchContextSize: 'low' }),
    openai.tools.mcp({
      serverUrl: 'https://mcp.deepwiki.com/mcp',
      requireApproval: { never: ['ask_question'] },
    }),
  ],
  toolChoice: 'auto',
  maxTokens: 2048,
  reasoning: { effort: 'low' },
  output: { schema: answer, name: 'answer' },
  providerOptions: { openai: { parallel_tool_calls: false, metadata: { user: 'u-1' } } },
};

const imageInput = {
  type: 'input_image',
  image_url: 'data:image/png;base64,iVBORw0K',
  detail: 'auto',
} as const;

const body: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
  model: 'gpt-5-mini',
  instructions: 'Be brief.',
  input: [
    { role: 'user', content: [{ type: 'input_text', text: 'Weather in Oslo?' }, imageInput] },
    thought,
    { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
    approvalRequest,
    { type: 'function_call_output', call_id: 'call_1', output: 'Error: down' },
    { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
    { role: 'assistant', content: 'It is down.' },
    {
      type: 'function_call_output',
      call_id: 'call_2',
      output: [{ type: 'input_text', text: 'map' }, imageInput],
    },
  ],
  tools: [
    {
      type: 'function',
      name: 'weather',
      description: 'Weather for a city',
      parameters: weather.parameters,
      strict: false,
    },
    { type: 'web_search', search_context_size: 'low' },
    {
      type: 'mcp',
      server_label: 'deepwiki',
      server_url: 'https://mcp.deepwiki.com/mcp',
      require_approval: { never: { tool_names: ['ask_question'] } },
    },
  ],
  tool_choice: 'auto',
  max_output_tokens: 2048,
  reasoning: { effort: 'low', summary: 'concise' },
  text: { format: { type: 'json_schema', name: 'answer', schema: answer, strict: true } },
  store: false,
  include: ['reasoning.encrypted_content', 'web_search_call.action.sources'],
  parallel_tool_calls: false,
  metadata: { user: 'u-1' },
};

const streamBody: OpenAI.Responses.ResponseCreateParamsStreaming = { ...body, stream: true };

/** The documented reply: a reasoning item and a structured answer. */
const reply = response([thought, message('{"summary":"down"}')]);

describe('Responses request bodies typed as the official SDK’s ResponseCreateParams', () => {
  it('sends exactly the typed body, whole and streamed', async () => {
    await fake.serve([
      { json: reply },
      {
        sse: [
          `data: ${JSON.stringify({ type: 'response.completed', sequence_number: 0, response: reply })}`,
        ],
      },
    ]);
    const model = openai({
      model: 'gpt-5-mini',
      apiKey: 'k',
      baseURL: fake.server.url,
      api: 'responses',
      reasoningSummary: 'concise',
    });
    const result = await model.generate(request);
    for await (const _ of model.stream(request)) {
      // drain
    }
    expect(fake.server.requests[0].body).toEqual(body);
    expect(fake.server.requests[1].body).toEqual(streamBody);
    expect(result.output).toEqual({ summary: 'down' });
  });
});
