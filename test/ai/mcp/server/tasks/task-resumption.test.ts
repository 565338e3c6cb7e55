import { describe, expect, it } from 'vitest';
import {
  QUEUED_MESSAGE,
  resumption,
} from '../../../../../src/ai/mcp/server/tasks/task-resumption.ts';
import type { StoredRun } from '../../../../../src/ai/session/index.ts';

const call = (kind: 'approval' | 'suspend') => ({
  kind,
  toolCallId: 'call',
  toolName: 'deploy',
  args: {},
  argsHash: 'h',
});
const run = (pending: unknown[] = []) => ({ runId: 'task_1', pending }) as unknown as StoredRun;
const task = (statusMessage?: string, idempotent = false) => ({
  toolName: 'deploy',
  statusMessage,
  idempotent,
});

describe('resumption', () => {
  it('fails a task that may have partly run, unless its tool is idempotent', () => {
    expect(resumption(run(), task('stage 2'), true)).toMatchObject({
      finish: {
        status: 'failed',
        error: expect.stringMatching(/^interrupted by a server restart/),
      },
    });
    expect(resumption(run(), task('stage 2', true), true)).toEqual({
      execute: { approved: false, resume: undefined },
    });
  });

  it('starts a task that was still queued, through the approval gate', () => {
    expect(resumption(run(), task(`${QUEUED_MESSAGE} (at most 4 …)`), true)).toEqual({
      execute: { approved: false, resume: undefined },
    });
    const approved = run([{ call: call('approval'), decision: { approve: true } }]);
    expect(resumption(approved, task(`${QUEUED_MESSAGE} …`), true)).toEqual({
      execute: { approved: true, resume: undefined },
    });
  });

  it('runs an approved or answered task, and completes a rejected one with an error result', () => {
    expect(
      resumption(run([{ call: call('suspend'), decision: { resume: 'Ada' } }]), task(), false),
    ).toEqual({ execute: { approved: true, resume: { resume: 'Ada' } } });
    expect(
      resumption(run([{ call: call('approval'), decision: { reject: 'no' } }]), task(), false),
    ).toMatchObject({
      finish: {
        status: 'completed',
        result: {
          isError: true,
          content: [{ text: 'The call to "deploy" was rejected (no). It was not executed.' }],
        },
      },
    });
  });
});
