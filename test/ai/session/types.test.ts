/** Type tests: the type-check step fails them when the public types drift. */
import type { Pool } from 'pg';
import { describe, expectTypeOf, it } from 'vitest';
import type { Agent } from '../../../src/ai/agent/index.ts';
import type {
  CorruptRun,
  PgPoolLike,
  postgresStore,
  RunProgress,
  Session,
  SessionAgent,
  SessionPendingCall,
  SessionRun,
} from '../../../src/ai/session/index.ts';

describe('fino:ai/session types', () => {
  it('narrows a run by its status', () => {
    const check = (run: SessionRun) => {
      if (run.status === 'suspended')
        expectTypeOf(run.pending).toEqualTypeOf<SessionPendingCall[]>();
      if (run.status === 'done') expectTypeOf(run.text).toEqualTypeOf<string>();
      if (run.status === 'error') expectTypeOf(run.error).toEqualTypeOf<string>();
      if (run.status === 'running') {
        expectTypeOf(run.progress).toEqualTypeOf<RunProgress | undefined>();
        expectTypeOf<RunProgress['at']>().toEqualTypeOf<string>();
      }
      // @ts-expect-error: only a done run has text
      if (run.status === 'suspended') void run.text;
      // @ts-expect-error: only a running run has progress
      if (run.status === 'done') void run.progress;
    };
    expectTypeOf(check).toBeFunction();
  });

  it('accepts an agent from fino:ai/agent', () => {
    expectTypeOf<Agent>().toExtend<SessionAgent>();
  });

  it('returns runs, and corrupt rows from list', () => {
    expectTypeOf<ReturnType<Session['list']>>().toEqualTypeOf<
      Promise<Array<SessionRun | CorruptRun>>
    >();
    expectTypeOf<ReturnType<Session['get']>>().toEqualTypeOf<Promise<SessionRun | undefined>>();
    // Present only in the result that suspended the run: stores keep a hash (decision 062).
    expectTypeOf<SessionPendingCall['token']>().toEqualTypeOf<string | undefined>();
  });

  it('takes a pg.Pool without exposing pg types', () => {
    expectTypeOf<Pool>().toExtend<PgPoolLike>();
    expectTypeOf<Parameters<typeof postgresStore>[0]>().toEqualTypeOf<string | PgPoolLike>();
  });
});
