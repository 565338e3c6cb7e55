import { openai } from '../../../../src/ai/model/index.ts';
import { chatChunk, sseData } from '../../../helpers/fake-provider.ts';
import type { ProviderFixture, SentResult, WireCall } from './fixture.ts';

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
const completion = (message: Record<string, unknown>, finish: string) => ({
  json: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, ...message },
        finish_reason: finish,
      },
    ],
    usage,
  },
});
const ERROR_PREFIX = 'Error: ';

/** OpenAI Chat Completions, as documented in the API reference (create and streaming chunks). */
export const openaiFixture: ProviderFixture = {
  name: 'openai',
  model: (baseURL) => openai({ model: 'gpt-test', apiKey: 'sk-test', baseURL }),
  path: () => '/chat/completions',
  toolCalls(calls: WireCall[], stream) {
    if (!stream) {
      return completion(
        {
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          })),
        },
        'tool_calls',
      );
    }
    return {
      sse: [
        chatChunk({ role: 'assistant', content: null }),
        ...calls.flatMap((c, index) => {
          const args = JSON.stringify(c.args);
          const half = Math.floor(args.length / 2);
          return [
            chatChunk({
              tool_calls: [
                { index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } },
              ],
            }),
            chatChunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }),
            chatChunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }),
          ];
        }),
        chatChunk({}, 'tool_calls'),
        sseData({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage }),
        'data: [DONE]',
      ],
    };
  },
  text(text, stream) {
    if (!stream) return completion({ content: text }, 'stop');
    const half = Math.floor(text.length / 2);
    return {
      sse: [
        chatChunk({ role: 'assistant', content: '' }),
        chatChunk({ content: text.slice(0, half) }),
        chatChunk({ content: text.slice(half) }),
        chatChunk({}, 'stop'),
        sseData({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage }),
        'data: [DONE]',
      ],
    };
  },
  sentResults(body): SentResult[] {
    return body.messages
      .filter((m: { role: string }) => m.role === 'tool')
      .map((m: { tool_call_id: string; content: string }) => {
        const isError = m.content.startsWith(ERROR_PREFIX);
        return {
          id: m.tool_call_id,
          text: isError ? m.content.slice(ERROR_PREFIX.length) : m.content,
          isError,
        };
      });
  },
  sentOutputSchema: (body) => body.response_format?.json_schema?.schema,
};
