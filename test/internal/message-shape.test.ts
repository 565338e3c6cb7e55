import { describe, expect, it } from 'vitest';
import { hasMessageShape } from '../../src/internal/message-shape.ts';

describe('hasMessageShape', () => {
  it('accepts the three roles with text or parts, and nothing else', () => {
    expect(hasMessageShape({ role: 'user', content: 'hi' })).toBe(true);
    expect(hasMessageShape({ role: 'assistant', content: [] })).toBe(true);
    expect(hasMessageShape({ role: 'system', content: 'be brief' })).toBe(true);
    for (const bad of [
      null,
      'user',
      [],
      { role: 'tool', content: 'x' },
      { role: 'user' },
      { role: 'user', content: 1 },
    ]) {
      expect(hasMessageShape(bad)).toBe(false);
    }
  });
});
