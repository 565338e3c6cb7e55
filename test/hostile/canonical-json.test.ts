/**
 * Canonical JSON against hostile values: tool arguments a model sends are hashed with it,
 * so nesting of any depth must not overflow the stack, and a value it cannot write must
 * fail with a TypeError rather than loop or crash.
 */
import { describe, expect, it } from 'vitest';
import { argsHash } from '../../src/ai/agent/args-hash.ts';
import { canonicalJson } from '../../src/internal/canonical-json.ts';

describe('canonicalJson on hostile values', () => {
  it('writes nesting far deeper than the call stack', () => {
    const depth = 200_000;
    const arrays = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(canonicalJson(arrays)).toBe(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    const objects = JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    expect(argsHash(objects)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a cycle with a TypeError instead of looping', () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(() => canonicalJson(cyclic)).toThrow(
      new TypeError('canonicalJson: expected a value without cycles, received a cycle'),
    );
  });

  it('refuses a bigint with a TypeError naming it', () => {
    expect(() => canonicalJson({ n: 5n })).toThrow(
      new TypeError('canonicalJson: expected a JSON value, received bigint 5n'),
    );
  });

  it('does not let __proto__ keys change the text of other keys', () => {
    const value = JSON.parse('{"__proto__":{"polluted":1},"a":1}');
    expect(canonicalJson(value)).toBe('{"__proto__":{"polluted":1},"a":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
