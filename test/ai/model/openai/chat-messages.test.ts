import { describe, expect, it } from 'vitest';
import type { ModelWarning } from '../../../../src/ai/model/index.ts';
import { toOpenAIMessages } from '../../../../src/ai/model/openai/chat-messages.ts';

describe('toOpenAIMessages', () => {
  it('sends a tool result’s media in a user message after the tool messages, with a warning', () => {
    const warnings: ModelWarning[] = [];
    const messages = toOpenAIMessages(
      undefined,
      [
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'c1',
              content: [
                { type: 'text', text: 'chart below' },
                { type: 'image', mediaType: 'image/png', data: 'AAA' },
              ],
            },
          ],
        },
      ],
      warnings,
    );
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'chart below' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attachments of tool call c1:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } },
        ],
      },
    ]);
    expect(warnings).toEqual([{ message: expect.stringContaining('tool result c1') }]);
  });

  it('converts audio, text documents and resources, and warns about what it cannot send', () => {
    const warnings: ModelWarning[] = [];
    const text = Buffer.from('hello file').toString('base64');
    const messages = toOpenAIMessages(
      'sys',
      [
        { role: 'system', content: [{ type: 'text', text: 'more rules' }] },
        {
          role: 'user',
          content: [
            { type: 'audio', mediaType: 'audio/wav', data: 'UklG' },
            { type: 'audio', mediaType: 'audio/ogg', data: 'T2dn' },
            { type: 'document', mediaType: 'text/markdown', data: text },
            { type: 'resource', uri: 'file:///a.txt', text: 'inline' },
            { type: 'tool_use', id: 'x', name: 'y', args: {} },
          ],
        },
        { role: 'assistant', content: [{ type: 'image', mediaType: 'image/png', data: 'A' }] },
      ],
      warnings,
    );
    expect(messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'system', content: 'more rules' },
      {
        role: 'user',
        content: [
          { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
          { type: 'text', text: 'hello file' },
          { type: 'text', text: 'inline' },
        ],
      },
      { role: 'assistant', content: null },
    ]);
    expect(warnings.map((w) => w.message)).toEqual([
      'messages[1]: audio part not sent: audio must be wav or mp3, not audio/ogg',
      'messages[1]: tool_use part not sent: user messages cannot carry it',
      'messages[2]: image part not sent: assistant messages carry only text and tool calls',
    ]);
  });

  it('sends malformed tool arguments back as the raw text the model wrote', () => {
    const messages = toOpenAIMessages(
      undefined,
      [{ role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'f', args: '{"a":' }] }],
      [],
    );
    expect(messages[0]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }],
    });
  });
});
