/** `ctx.agent`: an agent run inside a workflow as a durable child. */
import type {
  AgentInput,
  AgentRunOptions,
  Decision,
  Decisions,
  RunResult,
  RunState,
} from '../../ai/agent/index.ts';
import { errorMessage } from '../../internal/thrown-value.ts';
import { stepFailure, WorkflowError } from '../errors.ts';
import { toCheckpoint } from '../json-value.ts';
import { endSpan } from '../telemetry.ts';
import type { HistoryEntry } from '../types.ts';
import type { AgentOutcome, DurableAgent } from './context-types.ts';
import { suspendOn } from './pending-decisions.ts';
import { never, type ReplayEngine } from './replay-engine.ts';

/**
 * `ctx.agent(agent, prompt, { id })`: runs a `fino:ai/agent` agent as a durable child.
 * Each model turn and tool outcome is checkpointed into the run's history as the agent
 * reports it, so a crash resumes the agent from its last checkpoint; its pending calls are
 * the run's pending decisions.
 */
export async function runAgent(
  engine: ReplayEngine,
  agent: DurableAgent,
  prompt: AgentInput,
  options?: { id?: string },
): Promise<AgentOutcome> {
  if (!agent || typeof agent.generate !== 'function' || typeof agent.resume !== 'function') {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      'ctx.agent(agent): expected an agent of fino:ai/agent (with generate and resume)',
    );
  }
  const id = engine.autoId(options?.id, 'agent', 'agent', 'ctx.agent');
  const where = `agent "${id}"`;
  const saved = engine.meet(id, 'agent');
  if (saved?.state === 'done') return engine.replay(saved) as AgentOutcome;
  if (engine.cancelling && (saved || !engine.cancelDelivered)) throw engine.deliverCancel();
  if (!saved && !(await engine.beginLive(id, 'agent'))) return never();
  if (saved) engine.enterLive();
  const span = engine.span('agent', id);
  try {
    const progress = (saved ? engine.savedValue(saved) : { round: 0 }) as {
      round: number;
      state?: RunState;
      decisions?: Record<string, string>; // decision id → the agent's tool call id
    };
    const base = {
      id,
      kind: 'agent' as const,
      seq: saved?.seq ?? engine.nextSeq(),
      startedAt: saved?.startedAt ?? Date.now(),
    };
    let decisions: Decisions | undefined;
    if (progress.decisions) {
      const ids = Object.keys(progress.decisions);
      const taken = await engine.deps.store.decisions(engine.runId, ids);
      const missing = ids.filter((decisionId) => !taken.has(decisionId));
      if (missing.length > 0) return engine.waitFor(id, missing);
      decisions = {};
      for (const [decisionId, toolCallId] of Object.entries(progress.decisions)) {
        decisions[toolCallId] = taken.get(decisionId) as Decision;
      }
    }
    let lost = false;
    const runOptions: AgentRunOptions = {
      signal: engine.signal,
      runId: `${engine.runId}/${id}`,
      checkpointCopy: false,
      onCheckpoint: async (state, { reason }) => {
        // Decisions are in the store, a closed turn and the final state are rebuilt by resume (decision 066).
        if (reason === 'decisions' || reason === 'turn-closed' || reason === 'final') return;
        const value = toCheckpoint(
          { round: progress.round, state },
          `the state of ${where}`,
          engine.deps.maxValueBytes,
        );
        if (
          !(await engine.write({
            ...base,
            state: 'waiting',
            ...(value === undefined ? {} : { value }),
          }))
        ) {
          lost = true;
          throw new WorkflowError('CANCELLED', 'the lease was lost');
        }
      },
    };
    let result: RunResult;
    try {
      result = progress.state
        ? await agent.resume(progress.state, decisions, runOptions)
        : await agent.generate(prompt, runOptions);
    } catch (error) {
      if (lost || engine.ended) return never();
      const failed: HistoryEntry = {
        ...base,
        state: 'done',
        error: stepFailure(where, errorMessage(error)),
        endedAt: Date.now(),
      };
      return (await engine.settle(failed)) as AgentOutcome;
    }
    if (result.status === 'done') {
      const outcome: AgentOutcome = { text: result.text };
      if (result.output !== undefined) outcome.output = result.output;
      if (result.state.agent !== undefined) outcome.agent = result.agent;
      const entry: HistoryEntry = { ...base, state: 'done', endedAt: Date.now() };
      engine.fill(entry, outcome, `the result of ${where}`);
      return (await engine.settle(entry)) as AgentOutcome;
    }
    const round = progress.round + 1;
    const calls = result.pending.map((call) => ({
      ...call,
      decisionId: `${id}#${round}/${call.toolCallId}`,
    }));
    const value = toCheckpoint(
      {
        round,
        state: result.state,
        decisions: Object.fromEntries(calls.map((c) => [c.decisionId, c.toolCallId])),
      },
      `the state of ${where}`,
      engine.deps.maxValueBytes,
    );
    return suspendOn(
      engine,
      { ...base, state: 'waiting', ...(value === undefined ? {} : { value }) },
      round,
      calls.map(({ decisionId, ...call }) => ({ decisionId, call })),
    );
  } finally {
    endSpan(span);
    engine.liveEnded();
  }
}
