/** The poll wait of a remote task call: the server's suggestion, within bounds. */
import { describe, expect, it } from 'vitest';
import { pollWait, type TaskTiming } from '../../../../../src/ai/mcp/client/tasks/remote-task.ts';

const timing: TaskTiming = { pollIntervalMs: 1_000, maxPollIntervalMs: 5_000, timeoutMs: 60_000 };

describe('pollWait()', () => {
  it("takes the server's pollInterval", () => {
    expect(pollWait(250, timing)).toBe(250);
  });

  it('takes pollIntervalMs when the server suggests none', () => {
    expect(pollWait(undefined, timing)).toBe(1_000);
  });

  it('caps a huge pollInterval at maxPollIntervalMs', () => {
    expect(pollWait(2_000_000_000, timing)).toBe(5_000);
  });

  it('raises a zero or negative pollInterval to 10 ms, so a server cannot make it spin', () => {
    expect(pollWait(0, timing)).toBe(10);
    expect(pollWait(-5, timing)).toBe(10);
  });
});
