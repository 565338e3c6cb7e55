/**
 * The `ctx` a replayed run's code sees (decision 237): the run's own context, except that
 * tools and agents are replaced by stand-ins that park instead of running. An operation
 * the history does not hold is never started in a replay (the replay engine is stopping);
 * these cover the rest — a tool or agent the history left waiting, which a worker would
 * resume: a stand-in tool suspends, a stand-in agent answers "suspended, nothing pending",
 * so the code parks there as it does at the end of its history.
 */
import type { AgentRunOptions, RunResult, RunState } from '../../ai/agent/index.ts';
import { SuspendSignal } from '../../task/index.ts';
import type { Callable, DurableAgent, Execution, WorkflowContext } from '../context/index.ts';

/** An agent that runs nothing: every turn is "suspended, nothing pending". */
const parkedAgent: DurableAgent = {
  generate: async () => parked(undefined),
  resume: async (state: RunState, _decisions?: unknown, _options?: AgentRunOptions) =>
    parked(state),
};

const parked = (state: RunState | undefined): RunResult =>
  ({ status: 'suspended', pending: [], state, agent: 'replay' }) as RunResult;

/** A tool of the same name that runs nothing: it suspends. */
const parkedTool = (tool: Callable): Callable =>
  typeof tool?.invoke === 'function' && typeof tool.name === 'string'
    ? {
        name: tool.name,
        invoke: async () => {
          throw new SuspendSignal('replayHistory runs no tool');
        },
      }
    : tool; // not a tool: ctx.call refuses it as the worker would

const isAgent = (agent: DurableAgent): boolean =>
  typeof agent?.generate === 'function' && typeof agent.resume === 'function';

/** `execution` as the code of a replay sees it: tools and agents parked. */
export function inertContext(execution: Execution): WorkflowContext {
  return new Proxy(execution, {
    get(target, key) {
      if (key === 'call') {
        return (tool: Callable, args: unknown, options?: Parameters<Execution['call']>[2]) =>
          target.call(parkedTool(tool), args, options);
      }
      if (key === 'agent') {
        return (agent: DurableAgent, ...rest: [never, never]) =>
          target.agent(isAgent(agent) ? parkedAgent : agent, ...rest);
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
