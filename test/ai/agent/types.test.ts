import { describe, expectTypeOf, it } from 'vitest';
import {
  type Agent,
  type AgentEvent,
  type AgentRunOptions,
  agent,
  type CheckpointInfo,
  type Decision,
  type PendingCall,
  type RunResult,
  type RunState,
} from '../../../src/ai/agent/index.ts';
import { scriptedModel } from '../../../src/ai/model/index.ts';
import { v } from '../../../src/validate/index.ts';

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
    expectTypeOf<AgentRunOptions['onCheckpoint']>().toEqualTypeOf<
      ((state: RunState, info: CheckpointInfo) => void | Promise<void>) | undefined
    >();
    expectTypeOf<CheckpointInfo['reason']>().toEqualTypeOf<
      | 'model-turn'
      | 'tool-outcome'
      | 'decisions'
      | 'turn-closed'
      | 'final'
      | 'aborted'
      | 'context'
      | 'guardrail-tripped'
    >();
    expectTypeOf<Agent['resume']>().returns.toEqualTypeOf<Promise<RunResult>>();
    expectTypeOf<Extract<AgentEvent, { type: 'finish' }>['result']>().toEqualTypeOf<RunResult>();
  });

  it('type result.output from the output schema', () => {
    const model = scriptedModel([]);
    const typed = agent({ model, output: v.object({ city: v.string(), days: v.number() }) });
    expectTypeOf(typed).toEqualTypeOf<Agent<{ city: string; days: number }>>();
    const raw = agent({ model, output: { type: 'object' } });
    expectTypeOf(raw).toEqualTypeOf<Agent<unknown>>();
    const plain = agent({ model });
    expectTypeOf(plain).toEqualTypeOf<Agent<undefined>>();
    const check = (result: RunResult<{ city: string }>) => {
      if (result.status === 'done') {
        expectTypeOf(result.output).toEqualTypeOf<{ city: string } | undefined>();
      }
    };
    expectTypeOf(check).toBeFunction();
  });
});
