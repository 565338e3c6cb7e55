import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from '../../../../src/ai/model/anthropic/messages.ts';
import type { ModelWarning } from '../../../../src/ai/model/index.ts';

describe('toAnthropicMessages', () => {
  it('merges consecutive turns of one role and drops empty text', () => {
    const result = toAnthropicMessages(
      undefined,
      [
        { role: 'user', content: 'a' },
        {
          role: 'user',
          content: [
            { type: 'text', text: '' },
            { type: 'text', text: 'b' },
          ],
        },
        { role: 'assistant', content: 'c' },
      ],
      [],
    );
    expect(result).toEqual({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'c' }] },
      ],
    });
  });

  it('warns about content the Messages API cannot carry', () => {
    const warnings: ModelWarning[] = [];
    const result = toAnthropicMessages(
      undefined,
      [
        {
          role: 'user',
          content: [
            { type: 'audio', mediaType: 'audio/wav', data: 'UklG' },
            { type: 'image', mediaType: 'image/tiff', data: 'II' },
            { type: 'resource', uri: 'mem://1', mediaType: 'image/png', data: 'iV' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', args: '{"a":' }] },
      ],
      warnings,
    );
    expect(result.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iV' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
    ]);
    expect(warnings.map((w) => w.message)).toEqual([
      'messages[0]: audio part not sent: Anthropic Messages cannot carry this content (audio/wav)',
      'messages[0]: image part not sent: Anthropic Messages cannot carry this content (image/tiff)',
      'messages[1]: tool_use t had arguments that are not an object: sent as {}',
    ]);
  });
});
