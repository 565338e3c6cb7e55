/** Approval ids: the run and the call, both ways, and anything else refused. */
import { describe, expect, it } from 'vitest';
import { approvalIdOf, parseApprovalId } from '../../../src/ai/ui/index.ts';

describe('approvalIdOf / parseApprovalId', () => {
  it('round-trips ids holding the separator, escapes and non-ASCII', () => {
    for (const [runId, toolCallId] of [
      ['run_1', 'call_0_0'],
      ['a/b', 'c/d%2F'],
      ['rün 1', 'toolu_01/ä'],
    ]) {
      const id = approvalIdOf(runId, toolCallId);
      expect(id.split('/')).toHaveLength(2);
      expect(parseApprovalId(id)).toEqual({ runId, toolCallId });
    }
  });

  it('refuses forged or malformed ids with undefined', () => {
    for (const forged of ['', 'run', '/c', 'r/', 'a/b/c', 'r/%E0%A4%A', 42, null, undefined, {}]) {
      expect(parseApprovalId(forged)).toBeUndefined();
    }
  });
});
