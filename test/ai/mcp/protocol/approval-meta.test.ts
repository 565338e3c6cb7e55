import { describe, expect, it } from 'vitest';
import {
  approvalMeta,
  approvalSubject,
  hintsApproval,
} from '../../../../src/ai/mcp/protocol/approval-meta.ts';

describe("fino's approval _meta", () => {
  it('round-trips the call an approval elicitation is about', () => {
    const meta = approvalMeta('remove_file', { path: 'a.txt' });
    expect(meta).toEqual({
      'fino/approval': { tool: 'remove_file', arguments: { path: 'a.txt' } },
    });
    expect(approvalSubject({ _meta: meta })).toEqual({
      tool: 'remove_file',
      arguments: { path: 'a.txt' },
    });
  });

  it('reads no subject from anything else', () => {
    const malformed: unknown[] = [
      undefined,
      {},
      { _meta: null },
      { _meta: 'fino/approval' },
      { _meta: { 'fino/approval': null } },
      { _meta: { 'fino/approval': 'remove_file' } },
      { _meta: { 'fino/approval': { tool: 7, arguments: {} } } },
      { _meta: { 'fino/approval': { tool: 'remove_file' } } },
      { _meta: { other: { tool: 'remove_file', arguments: {} } } },
    ];
    for (const params of malformed) {
      expect(approvalSubject(params as never), JSON.stringify(params)).toBeUndefined();
    }
  });

  it('hints approval only for exactly true', () => {
    expect(hintsApproval({ _meta: { 'fino/requiresApproval': true } })).toBe(true);
    for (const value of [false, 'true', 1, null]) {
      expect(hintsApproval({ _meta: { 'fino/requiresApproval': value } })).toBe(false);
    }
    expect(hintsApproval({})).toBe(false);
  });
});
