import { describe, expect, it } from 'vitest';
import { toolResultContent, uiToolOutput } from '../../../src/ai/ui/index.ts';

describe('a tool result in a UI message', () => {
  it('is its text when the result is text, its parts otherwise', () => {
    expect(uiToolOutput({ content: 'filed' })).toBe('filed');
    expect(
      uiToolOutput({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('a\n\nb');
    const image = [
      { type: 'text' as const, text: 'chart' },
      { type: 'image' as const, mediaType: 'image/png', data: 'iVBORw0KGgo=' },
    ];
    expect(uiToolOutput({ content: image })).toEqual(image);
  });

  it('turns a posted output back into result content, and JSON text for anything else', () => {
    expect(toolResultContent('filed')).toBe('filed');
    const parts = [{ type: 'image', mediaType: 'image/png', data: 'AA==' }];
    expect(toolResultContent(parts)).toEqual(parts);
    expect(toolResultContent({ temperature: 21 })).toBe('{"temperature":21}');
    expect(toolResultContent(undefined)).toBe('null');
    // Parts that are not whole fino content parts stay JSON text, never reach a provider.
    expect(toolResultContent([{ type: 'image' }])).toBe('[{"type":"image"}]');
    expect(toolResultContent([{ type: 'constructor', text: 'x' }])).toBe(
      '[{"type":"constructor","text":"x"}]',
    );
    expect(toolResultContent([])).toBe('[]');
  });
});
