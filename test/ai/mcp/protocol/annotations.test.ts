import { describe, expect, it } from 'vitest';
import { fromAnnotations, toAnnotations } from '../../../../src/ai/mcp/protocol/annotations.ts';
import { tool } from '../../../../src/ai/tool/index.ts';

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
  });

  it('maps every risk level, reading labels of your own as possibly destructive', () => {
    const hint = (risk: string) => toAnnotations({ risk, sideEffects: true })?.destructiveHint;
    expect(hint('low')).toBe(false);
    expect(hint('medium')).toBe(false);
    expect(hint('high')).toBe(true);
    expect(hint('destructive')).toBe(true);
    expect(hint('billing')).toBe(true);
    expect(hint('Medium')).toBe(true);
    expect(toAnnotations({ sideEffects: true })?.destructiveHint).toBeUndefined();
  });

  it('carries idempotent both ways and leaves it out when undeclared', () => {
    expect(toAnnotations({ idempotent: true })).toEqual({ idempotentHint: true });
    expect(toAnnotations({ idempotent: false })).toEqual({ idempotentHint: false });
  });

  it('derives openWorldHint from declared effects, claiming nothing for unknown ones', () => {
    const openWorld = (effects: string[]) => toAnnotations({ effects })?.openWorldHint;
    expect(openWorld(['network'])).toBe(true);
    expect(openWorld(['fs:write', 'http:post'])).toBe(true);
    expect(openWorld(['fs:write', 'db'])).toBe(false);
    expect(openWorld(['fs:write', 'billing'])).toBeUndefined();
    expect(openWorld([])).toBeUndefined();
  });

  it("reads a tool's declarations through tool()", () => {
    const put = tool({
      name: 'put',
      risk: 'medium',
      sideEffects: true,
      idempotent: true,
      effects: ['fs:write'],
      execute: () => 'ok',
    });
    expect(put.idempotent).toBe(true);
    expect(toAnnotations(put)).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('rejects an idempotent option that is not a boolean', () => {
    expect(() => tool({ name: 'bad', idempotent: 'yes' as never, execute: () => 'ok' })).toThrow(
      'Task "bad": idempotent: expected a boolean, received string',
    );
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

  it('reads readOnlyHint: false as side effects and idempotentHint as idempotent', () => {
    expect(fromAnnotations({ readOnlyHint: false, title: 'T', idempotentHint: true })).toEqual({
      title: 'T',
      sideEffects: true,
      idempotent: true,
      requiresApproval: false,
    });
    expect(fromAnnotations({ idempotentHint: false })).toEqual({
      idempotent: false,
      requiresApproval: false,
    });
  });

  it('claims nothing for a tool without annotations or with hints that are not booleans', () => {
    expect(fromAnnotations(undefined)).toEqual({ requiresApproval: false });
    expect(
      fromAnnotations({ readOnlyHint: 'no', idempotentHint: 1, destructiveHint: 'yes' } as never),
    ).toEqual({ requiresApproval: false });
  });

  it('round-trips what toAnnotations claims', () => {
    const declared = {
      title: 'Remove',
      risk: 'destructive',
      sideEffects: true,
      idempotent: false,
    } as const;
    expect(fromAnnotations(toAnnotations(declared))).toMatchObject(declared);
    const readOnly = { sideEffects: false, idempotent: true } as const;
    expect(fromAnnotations(toAnnotations(readOnly))).toMatchObject(readOnly);
  });
});
