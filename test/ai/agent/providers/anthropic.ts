import { anthropic } from '../../../../src/ai/model/index.ts';
import { sseEvent } from '../../../helpers/fake-provider.ts';
import type { ProviderFixture, SentResult, WireCall } from './fixture.ts';

const usage = { input_tokens: 10, output_tokens: 5 };
const message = (content: unknown[], stopReason: string) => ({
  json: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  },
});
const streamed = (blocks: string[][], stopReason: string) => ({
  sse: [
    sseEvent({
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'claude-test',
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    ...blocks.flat(),
    sseEvent({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 5 },
    }),
    sseEvent({ type: 'message_stop' }),
  ],
});

/** Anthropic Messages, as documented (the Message object and the streaming events). */
export const anthropicFixture: ProviderFixture = {
  name: 'anthropic',
  model: (baseURL) => anthropic({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL }),
  path: () => '/v1/messages',
  toolCalls(calls: WireCall[], stream) {
    if (!stream) {
      return message(
        calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args })),
        'tool_use',
      );
    }
    return streamed(
      calls.map((c, index) => {
        const args = JSON.stringify(c.args);
        const half = Math.floor(args.length / 2);
        return [
          sseEvent({
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
          }),
          sseEvent({
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: args.slice(0, half) },
          }),
          sseEvent({
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: args.slice(half) },
          }),
          sseEvent({ type: 'content_block_stop', index }),
        ];
      }),
      'tool_use',
    );
  },
  text(text, stream) {
    if (!stream) return message([{ type: 'text', text }], 'end_turn');
    const half = Math.floor(text.length / 2);
    return streamed(
      [
        [
          sseEvent({
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          }),
          sseEvent({
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: text.slice(0, half) },
          }),
          sseEvent({
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: text.slice(half) },
          }),
          sseEvent({ type: 'content_block_stop', index: 0 }),
        ],
      ],
      'end_turn',
    );
  },
  sentResults(body): SentResult[] {
    return body.messages.flatMap((m: { role: string; content: any[] }) =>
      m.role !== 'user'
        ? []
        : m.content
            .filter((b) => b.type === 'tool_result')
            .map((b) => ({
              id: b.tool_use_id,
              text:
                typeof b.content === 'string'
                  ? b.content
                  : b.content.map((p: { text: string }) => p.text).join(''),
              isError: b.is_error === true,
            })),
    );
  },
  sentOutputSchema: (body) => body.output_config?.format?.schema,
};
