/**
 * A workflow run's state in words (issue 32, item 18): what each waiting run waits for,
 * which ones only a worker moves on, and the running worker's name.
 */
import { describe, expect, it } from 'vitest';
import { workflowRunState } from '../../../../src/ai/session/inbox/workflow-state.ts';
import type { InboxWorkflowRun } from '../../../../src/ai/session/index.ts';

const NOW = Date.parse('2026-01-02T00:00:00.000Z');
const run = (fields: Partial<InboxWorkflowRun>): InboxWorkflowRun => ({
  runId: 'wf-1',
  workflowId: 'refunds',
  status: 'waiting',
  input: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});
const state = (fields: Partial<InboxWorkflowRun>, undecided: string[] = []) => {
  const { label, waits, needsWorker } = workflowRunState(run(fields), new Set(undecided), NOW);
  return { label, waits: waits.map(String), needsWorker };
};

describe('workflowRunState', () => {
  it('says a finished run is done, failed or cancelled, and a running one on which worker', () => {
    expect(state({ status: 'done' }).label).toBe('done');
    expect(state({ status: 'error' }).label).toBe('failed');
    expect(state({ status: 'cancelled' }).label).toBe('cancelled');
    expect(state({ status: 'running', worker: 'host-1:42' })).toEqual({
      label: 'running on worker host-1:42',
      waits: [],
      needsWorker: false,
    });
  });

  it('tells a decision still to take from one taken that only a worker carries on', () => {
    const waitingOn = { signals: [], decisions: ['$call:pay_expense'] };
    expect(state({ waitingOn }, ['$call:pay_expense'])).toEqual({
      label: 'waiting for a decision',
      waits: ['a decision on <span class="id" title="$call:pay_expense">pay_expense</span>'],
      needsWorker: false,
    });
    const audit = [
      { at: '2026-01-01T00:00:01.000Z', action: 'reject', decisionId: '$call:pay_expense' },
    ];
    expect(state({ waitingOn, audit })).toEqual({
      label: 'rejected, waiting for a worker',
      waits: ['<span class="id" title="$call:pay_expense">pay_expense</span> rejected'],
      needsWorker: true,
    });
  });

  it('names an agent’s decision by its tool, from the pending call', () => {
    const decisionId = 'triage#1/call_9';
    const pending = [{ decisionId, runId: 'wf-1', toolName: 'refund', createdAt: NOW } as never];
    const waitingOn = { signals: [], decisions: [decisionId] };
    expect(state({ waitingOn, pending }, [decisionId]).waits).toEqual([
      'a decision on <span class="id" title="triage#1/call_9">refund</span>',
    ]);
  });

  it('says what else a run waits on, and that a due timer waits for a worker', () => {
    expect(state({ waitingOn: { signals: ['courier-scan'], decisions: [] } })).toEqual({
      label: 'waiting for a signal',
      waits: ['signal courier-scan'],
      needsWorker: false,
    });
    expect(state({ waitingOn: { signals: [], decisions: [], children: ['c-1'] } }).label).toBe(
      'waiting for a child run',
    );
    const later = '2026-01-03T00:00:00.000Z';
    expect(state({ waitingOn: { signals: [], decisions: [], timer: later } })).toEqual({
      label: 'sleeping',
      waits: [`timer until ${later}`],
      needsWorker: false,
    });
    const earlier = '2026-01-01T00:00:00.000Z';
    expect(state({ waitingOn: { signals: [], decisions: [], timer: earlier } })).toEqual({
      label: 'timer due, waiting for a worker',
      waits: [`timer due since ${earlier}`],
      needsWorker: true,
    });
  });
});
