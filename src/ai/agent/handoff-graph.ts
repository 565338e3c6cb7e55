/**
 * The handoff graph of a root agent: every agent reachable through `handoffs`, each with
 * its handoffs added as tools, the root's run-wide settings (stop conditions, state
 * secret) over its own. Built once per root, on its first run; the active agent of a
 * run is looked up in it by the name in `state.agent`.
 */
import type { SchemaInput } from '../../task/index.ts';
import { tool, toToolDefinition } from '../tool/index.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './describe.ts';
import { Handoff, type HandoffOptions } from './handoff.ts';
import type { AgentConfig, AnyTool } from './options.ts';
import { READ_RESULT } from './result-budget.ts';
import type { RunState } from './types.ts';

/** What `handoffs` accepts: agents and `handoff()`s, or a function returning them (for cycles). */
export type HandoffList =
  | readonly (HandoffEntry | Handoff)[]
  | (() => readonly (HandoffEntry | Handoff)[]);

/** An agent listed directly in `handoffs` (an `Agent`). */
export interface HandoffEntry {
  readonly name: string;
}

/** One handoff of an agent, as the graph routes it. */
export interface HandoffRoute {
  to: string;
  inputFilter: HandoffOptions['inputFilter'];
}

interface GraphNode {
  config: AgentConfig;
  /** The agent's handoffs by tool name. */
  routes: Map<string, HandoffRoute>;
}

/** Every agent of a root's graph by name, with its handoffs as tools. */
export interface HandoffGraph {
  root: string;
  nodes: Map<string, GraphNode>;
}

/** The configuration of each `Agent`, so a handoff target's can be read. */
const configs = new WeakMap<object, AgentConfig>();
/** The graph of each root configuration and of each configuration a graph made. */
const graphs = new WeakMap<AgentConfig, HandoffGraph>();

/** Records `agent`'s configuration, for the graphs it is a handoff target of. */
export function registerAgent(agent: object, config: AgentConfig): void {
  configs.set(agent, config);
}

/** Checks the `handoffs` option: an array of agents and handoffs now, a function on first run. */
export function readHandoffs(list: unknown): (() => Handoff[]) | undefined {
  if (list === undefined) return undefined;
  if (typeof list === 'function') return () => handoffsOf(list(), 'agent(options).handoffs()');
  const read = handoffsOf(list, 'agent(options).handoffs');
  return read.length === 0 ? undefined : () => read;
}

function handoffsOf(list: unknown, where: string): Handoff[] {
  if (!Array.isArray(list)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}: expected an array of agents and handoff()s, received ${describe(list)}`,
    );
  }
  return list.map((entry, i) => {
    if (entry instanceof Handoff) return entry;
    if (entry !== null && typeof entry === 'object' && configs.has(entry)) {
      return new Handoff(entry as HandoffEntry);
    }
    throw new AgentError(
      'INVALID_ARGUMENT',
      `${where}[${i}]: expected an agent (from agent()) or a handoff(agent), received ${describe(entry)}`,
    );
  });
}

/** The graph `config` belongs to (built with it as the root when new); none without handoffs. */
export function graphOf(config: AgentConfig): HandoffGraph | undefined {
  const known = graphs.get(config);
  if (known || config.handoffs === undefined) return known;
  const graph = buildGraph(config);
  graphs.set(config, graph);
  for (const node of graph.nodes.values()) graphs.set(node.config, graph);
  return graph;
}

/**
 * The configuration of the agent a run goes on with: `state.agent` (absent: the root) in
 * the graph of `current`. An unknown name is refused, naming the agents there are.
 */
export function activeConfig(state: RunState, current: AgentConfig): AgentConfig {
  const graph = graphOf(current);
  const name = state.agent;
  if (graph === undefined) {
    if (name === undefined || name === current.name) return current;
    throw unknownAgent(state, name, current.name, [current.name]);
  }
  const node = graph.nodes.get(name ?? graph.root);
  if (!node) throw unknownAgent(state, name!, graph.root, [...graph.nodes.keys()]);
  const from = state.handoff;
  if (from && !graph.nodes.get(from.from)?.routes.has(from.toolName)) {
    throw new AgentError(
      'INVALID_STATE',
      `state.handoff: agent "${from.from}" of the handoff graph of "${graph.root}" has no handoff "${from.toolName}"; the state was made by another graph`,
    );
  }
  return node.config;
}

/** The handoffs of `config` (a configuration of a graph) by tool name. */
export function routesOf(config: AgentConfig): Map<string, HandoffRoute> | undefined {
  return graphs.get(config)?.nodes.get(config.name)?.routes;
}

function unknownAgent(state: RunState, name: string, root: string, known: string[]): AgentError {
  const fresh = state.steps.length === 0;
  return new AgentError(
    fresh ? 'INVALID_ARGUMENT' : 'INVALID_STATE',
    `${fresh ? 'run options.agent' : 'state.agent'}: "${name}" is not an agent of the handoff graph of "${root}" (agents: ${known.join(', ')})`,
  );
}

/** Walks the graph from `root`, refusing targets that are not agents and two agents of one name. */
function buildGraph(root: AgentConfig): HandoffGraph {
  const bases = new Map<string, AgentConfig>([[root.name, root]]);
  const lists = new Map<string, Handoff[]>();
  const queue = [root];
  for (let config = queue.shift(); config; config = queue.shift()) {
    const list = config.handoffs?.() ?? [];
    lists.set(config.name, list);
    for (const entry of list) {
      const target = configs.get(entry.agent);
      if (!target) {
        throw new AgentError(
          'INVALID_ARGUMENT',
          `agent "${config.name}": handoff "${entry.toolName}": expected an agent (from agent()) as its target, received ${describe(entry.agent)}`,
        );
      }
      const seen = bases.get(target.name);
      if (seen === undefined) {
        bases.set(target.name, target);
        queue.push(target);
      } else if (seen !== target) {
        throw new AgentError(
          'INVALID_ARGUMENT',
          `the handoff graph of "${root.name}" has two agents named "${target.name}"; give each agent its own name option`,
        );
      }
    }
  }
  const nodes = new Map<string, GraphNode>();
  for (const [name, base] of bases) nodes.set(name, node(base, lists.get(name)!, root));
  return { root: root.name, nodes };
}

/** An agent of the graph: its handoffs added to its tools, the root's stop conditions and secret. */
function node(base: AgentConfig, handoffs: Handoff[], root: AgentConfig): GraphNode {
  const tools = new Map<string, AnyTool>(base.tools);
  const routes = new Map<string, HandoffRoute>();
  for (const entry of handoffs) {
    const name = entry.toolName;
    if (tools.has(name) || base.providerTools.has(name) || name === READ_RESULT) {
      throw new AgentError(
        'INVALID_TOOL',
        `agent "${base.name}": the handoff tool name "${name}" is taken by another tool or handoff; give the handoff its own toolName`,
      );
    }
    const target = configs.get(entry.agent)!;
    tools.set(name, handoffTool(entry, target, routes));
    routes.set(name, { to: target.name, inputFilter: entry.inputFilter });
  }
  const added = [...tools.values()].slice(base.tools.size);
  const config: AgentConfig = {
    ...base,
    tools,
    definitions: [...base.definitions, ...added.map((t) => toToolDefinition(t))],
    stopWhen: root.stopWhen,
    stateSecret: root.stateSecret,
  };
  return { config, routes };
}

/**
 * The tool the model calls to hand off: its arguments are checked like any tool's; the
 * first handoff call of a turn is the one taken, a later one is answered with an error.
 */
function handoffTool(
  entry: Handoff,
  target: AgentConfig,
  routes: ReadonlyMap<string, HandoffRoute>,
): AnyTool {
  return tool({
    name: entry.toolName,
    description:
      entry.description ?? target.description ?? `Hand the conversation to ${target.name}`,
    ...(entry.args !== undefined && { parameters: entry.args as SchemaInput<unknown> }),
    execute: (_args: unknown, ctx) => {
      const first = firstHandoffCall(ctx.messages.at(-1), routes);
      if (first !== undefined && first !== ctx.toolCallId) {
        throw new Error(
          `only one handoff per turn is taken, and this turn already hands off in call "${first}"`,
        );
      }
      return `Transferred to ${target.name}: ${target.name} goes on with the conversation.`;
    },
  });
}

/** The id of the first call of a handoff in the model turn `message`. */
function firstHandoffCall(
  message: { content: unknown } | undefined,
  routes: ReadonlyMap<string, HandoffRoute>,
): string | undefined {
  if (!Array.isArray(message?.content)) return undefined;
  const part = message.content.find(
    (p: { type?: string; name?: string }) => p.type === 'tool_use' && routes.has(p.name ?? ''),
  ) as { id: string } | undefined;
  return part?.id;
}
