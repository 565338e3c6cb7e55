import { describe, expect, it } from 'vitest';
import { isToken, newToken } from '../../../src/internal/durable/index.ts';

describe('decision tokens', () => {
  it('never start with "-", so a command line cannot read one as an option', () => {
    // Without the rule, one token in 64 starts with "-": 4,000 tokens all avoid it with
    // probability (63/64)^4000 ≈ 3e-28.
    const tokens = Array.from({ length: 4_000 }, newToken);
    expect(tokens.filter((token) => token.startsWith('-'))).toEqual([]);
    expect(tokens.every(isToken)).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
