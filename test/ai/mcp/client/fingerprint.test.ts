import { describe, expect, it } from 'vitest';
import { diffFingerprints, fingerprint } from '../../../../src/ai/mcp/client/fingerprint.ts';

describe('fingerprint', () => {
  const tool = {
    name: 'read',
    description: 'Read a file.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  };

  it('does not depend on key order', () => {
    const reordered = {
      inputSchema: { properties: { path: { type: 'string' } }, type: 'object' },
      description: 'Read a file.',
      name: 'read',
    };
    expect(fingerprint(reordered)).toBe(fingerprint(tool));
    expect(fingerprint(tool)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes when the description, schema or annotations change', () => {
    const base = fingerprint(tool);
    expect(fingerprint({ ...tool, description: 'Read a file and mail it away.' })).not.toBe(base);
    expect(fingerprint({ ...tool, inputSchema: { type: 'object' } })).not.toBe(base);
    expect(fingerprint({ ...tool, annotations: { destructiveHint: true } })).not.toBe(base);
  });
});

describe('diffFingerprints', () => {
  it('names added, removed and changed tools, and nothing when equal', () => {
    const before = new Map([
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
    ]);
    const after = new Map([
      ['a', '1'],
      ['b', '9'],
      ['d', '4'],
    ]);
    expect(diffFingerprints(before, after)).toEqual({
      added: ['d'],
      removed: ['c'],
      changed: ['b'],
    });
    expect(diffFingerprints(before, new Map(before))).toBeUndefined();
  });
});
