import { describe, expect, it } from 'vitest';
import { fromAnnotations, toAnnotations } from '../../../src/ai/mcp/annotations.ts';

describe('toAnnotations', () => {
  it('claims read-only only for an explicit sideEffects: false', () => {
    expect(toAnnotations({ sideEffects: false })).toEqual({ readOnlyHint: true });
    expect(toAnnotations({ sideEffects: true })).toEqual({ readOnlyHint: false });
    expect(toAnnotations({})).toBeUndefined();
  });

  it('marks destructive risk and carries the title', () => {
    expect(toAnnotations({ risk: 'destructive', sideEffects: true, title: 'Remove' })).toEqual({
      title: 'Remove',
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(toAnnotations({ risk: 'high' })).toBeUndefined();
  });
});

describe('fromAnnotations', () => {
  it('reads destructive, not read-only tools as needing approval', () => {
    expect(fromAnnotations({ destructiveHint: true })).toEqual({
      risk: 'destructive',
      requiresApproval: true,
    });
    expect(fromAnnotations({ destructiveHint: true, readOnlyHint: true })).toEqual({
      risk: 'destructive',
      sideEffects: false,
      requiresApproval: false,
    });
  });

  it('claims nothing for a tool without annotations', () => {
    expect(fromAnnotations(undefined)).toEqual({ requiresApproval: false });
    expect(fromAnnotations({ readOnlyHint: false, title: 'T' })).toEqual({
      title: 'T',
      requiresApproval: false,
    });
  });

  it('round-trips what toAnnotations claims', () => {
    const declared = { title: 'Remove', risk: 'destructive', sideEffects: false } as const;
    const back = fromAnnotations(toAnnotations(declared));
    expect(back).toMatchObject(declared);
  });
});
