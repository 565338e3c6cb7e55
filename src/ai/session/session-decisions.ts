/**
 * A session's decisions: approve, reject and resume a pending call, by its token or by
 * run and call id; the run continues here once all its calls are decided (unless
 * `defer`, or the session has no agent).
 */
import { describeValue } from '../../internal/describe-value.ts';
import type { Decision } from '../agent/index.ts';
import { SessionError } from './errors.ts';
import { toView } from './run-view.ts';
import type { DecideOptions, Session } from './session-api.ts';
import type { SessionCore } from './session-core.ts';
import type { PendingRef, SessionRun } from './types.ts';

/** The decision methods of a session over `core`. */
export function sessionDecisions(
  core: SessionCore,
): Pick<Session, 'approve' | 'reject' | 'resume'> {
  const { store, agent, owner, leaseMs } = core;
  async function decide(
    ref: PendingRef,
    decision: Decision,
    options: DecideOptions = {},
  ): Promise<SessionRun> {
    const claim = agent && !options.defer ? { owner, leaseMs } : undefined;
    const { run, claimed } = await store.decide(
      ref,
      decision,
      { by: options.by, note: options.note },
      claim,
    );
    return claimed ? core.continueClaimed(run, 'decision', options.signal) : toView(run);
  }

  return {
    approve: (ref, decideOptions) => decide(ref, { approve: true }, decideOptions),

    reject(ref, reason, decideOptions) {
      if (typeof reason !== 'string' || reason.trim() === '') {
        return Promise.reject(
          new SessionError(
            'INVALID_ARGUMENT',
            `reject(ref, reason): reason: expected a non-empty string (the model reads it), received ${describeValue(reason)}`,
          ),
        );
      }
      return decide(ref, { reject: reason }, decideOptions);
    },

    resume(ref, value, decideOptions) {
      if (value === undefined) {
        return Promise.reject(
          new SessionError(
            'INVALID_ARGUMENT',
            'resume(ref, value): a value is required (JSON has no undefined; send null for "no answer")',
          ),
        );
      }
      return decide(ref, { resume: value }, decideOptions);
    },
  };
}
