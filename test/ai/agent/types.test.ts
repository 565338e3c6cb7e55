import { describe, expectTypeOf, it } from 'vitest';
import type {
  Agent,
  AgentEvent,
  Decision,
  PendingCall,
  RunOptions,
  RunResult,
  RunState,
} from '../../../src/ai/agent/index.ts';

describe('ai/agent types', () => {
  it('narrow a run result by status', () => {
    const check = (result: RunResult) => {
      if (result.status === 'done') expectTypeOf(result.text).toEqualTypeOf<string>();
      else expectTypeOf(result.pending).toEqualTypeOf<PendingCall[]>();
      expectTypeOf(result.state).toEqualTypeOf<RunState>();
    };
    expectTypeOf(check).toBeFunction();
  });

  it('accept exactly the three decision shapes', () => {
    expectTypeOf<{ approve: true }>().toMatchTypeOf<Decision>();
    expectTypeOf<{ reject: string }>().toMatchTypeOf<Decision>();
    expectTypeOf<{ resume: { answer: number } }>().toMatchTypeOf<Decision>();
    expectTypeOf<{ approve: false }>().not.toMatchTypeOf<Decision>();
  });

  it('type run options and the methods that take them', () => {
    expectTypeOf<RunOptions['onCheckpoint']>().toEqualTypeOf<
      ((state: RunState) => void | Promise<void>) | undefined
    >();
    expectTypeOf<Agent['resume']>().returns.toEqualTypeOf<Promise<RunResult>>();
    expectTypeOf<Extract<AgentEvent, { type: 'finish' }>['result']>().toEqualTypeOf<RunResult>();
  });
});
