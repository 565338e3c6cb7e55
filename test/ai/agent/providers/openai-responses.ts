import { openai } from '../../../../src/ai/model/index.ts';
import { functionCall, message, reply } from '../../model/openai/responses-wire.ts';
import type { ProviderFixture, SentResult } from './fixture.ts';

const ERROR_PREFIX = 'Error: ';

/** OpenAI's Responses API, as documented (the Response object and its typed stream events). */
export const openaiResponsesFixture: ProviderFixture = {
  name: 'openai responses',
  model: (baseURL) => openai({ model: 'gpt-test', apiKey: 'sk-test', baseURL, api: 'responses' }),
  path: () => '/responses',
  toolCalls: (calls, stream) =>
    reply(
      calls.map((c) => functionCall(c.id, c.name, c.args)),
      stream,
    ),
  text: (text, stream) => reply([message(text)], stream),
  sentResults(body): SentResult[] {
    return body.input
      .filter((item: { type?: string }) => item.type === 'function_call_output')
      .map((item: { call_id: string; output: string }) => {
        const isError = item.output.startsWith(ERROR_PREFIX);
        return {
          id: item.call_id,
          text: isError ? item.output.slice(ERROR_PREFIX.length) : item.output,
          isError,
        };
      });
  },
  sentOutputSchema: (body) => body.text?.format?.schema,
};
