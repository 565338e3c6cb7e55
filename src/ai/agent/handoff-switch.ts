/**
 * A handoff taking effect: when a turn closes with a handoff call answered without error,
 * the run goes on with the target agent (`state.agent`, `state.handoff`, the `handoff`
 * event); before each of the target's requests, the handoff's input filter shapes what it
 * sees of the conversation before the handoff. Both follow from the state alone, so a
 * resumed run takes the same handoff and sends the same messages.
 */
import { hasMessageShape, MESSAGE_SHAPE } from '../../internal/message-shape.ts';
import type { GenerateRequest } from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './describe.ts';
import { graphOf, routesOf } from './handoff-graph.ts';
import type { Run } from './run.ts';
import type { RunState } from './types.ts';

/**
 * After the turn of `step` closed: when its first handoff call has a result that is not an
 * error, makes the target the active agent of the run and of `state`.
 */
export function takeHandoff(state: RunState, run: Run, step: number): void {
  const routes = routesOf(run.config);
  if (routes === undefined || routes.size === 0) return;
  const { toolCalls, toolResults } = state.steps[step];
  const index = toolCalls.findIndex((call) => routes.has(call.name));
  if (index < 0 || toolResults[index]?.isError) return;
  const call = toolCalls[index];
  const graph = graphOf(run.config)!;
  const from = run.config.name;
  const to = routes.get(call.name)!.to;
  if (to === graph.root) delete state.agent;
  else state.agent = to;
  state.handoff = { from, toolName: call.name, at: state.messages.length };
  run.config = graph.nodes.get(to)!.config;
  run.emit({ type: 'handoff', step, from, to, toolCallId: call.id });
}

/**
 * Applies the input filter of the handoff that made the active agent active to the part of
 * `request.messages` before the handoff (after the context step); the messages since the
 * handoff are sent as they are.
 */
export function filterHandoffInput(state: RunState, run: Run, request: GenerateRequest): void {
  const handoff = state.handoff;
  if (handoff === undefined) return;
  const filter = graphOf(run.config)
    ?.nodes.get(handoff.from)
    ?.routes.get(handoff.toolName)?.inputFilter;
  if (filter === undefined) return;
  const before = request.messages.length - (state.messages.length - handoff.at);
  if (before < 0) return;
  const filtered: unknown = filter(structuredClone(request.messages.slice(0, before)));
  const where = `handoff "${handoff.toolName}" of agent "${handoff.from}": inputFilter`;
  if (!Array.isArray(filtered)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}: expected an array of messages, received ${describe(filtered)}`,
    );
  }
  filtered.forEach((message, i) => {
    if (!hasMessageShape(message)) {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `${where}: message ${i}: expected ${MESSAGE_SHAPE}, received ${describe(message)}`,
      );
    }
  });
  request.messages = [...filtered, ...request.messages.slice(before)];
}

/** Checks the handoff fields of a stored state: `agent` a name, `handoff` the one that made it active. */
export function checkHandoffState(state: Partial<RunState>): void {
  if (state.agent !== undefined && (typeof state.agent !== 'string' || state.agent === '')) {
    throw new AgentError(
      'INVALID_STATE',
      `state.agent: expected the name of an agent or absent, received ${describe(state.agent)}`,
    );
  }
  const handoff = state.handoff;
  if (handoff === undefined) return;
  const messages = Array.isArray(state.messages) ? state.messages.length : 0;
  if (
    handoff === null ||
    typeof handoff !== 'object' ||
    typeof handoff.from !== 'string' ||
    typeof handoff.toolName !== 'string' ||
    !Number.isInteger(handoff.at) ||
    handoff.at < 0 ||
    handoff.at > messages
  ) {
    throw new AgentError(
      'INVALID_STATE',
      `state.handoff: expected { from, toolName, at } with at a message index ≤ ${messages}, received ${describe(handoff)}`,
    );
  }
}
