import { v } from '../../validate/index.ts';
import { type Tool, type ToolOptions, type ToolRunContext, tool } from '../tool/index.ts';
import type { Agent } from './agent.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './state.ts';
import type { Decisions, RunState } from './types.ts';

/** What `agent.asTool()` accepts. */
export interface AgentToolOptions {
  /** The tool's name; the agent's name by default. */
  name?: string;
  description: string;
  /**
   * Schema of the tool's arguments; by default `{ input: string }`, whose `input` is the
   * user message. With another schema, the arguments as JSON are the user message.
   */
  input?: ToolOptions<unknown>['parameters'];
}

/** The value to resume a suspended agent tool with: the inner run's state and decisions. */
export interface AgentToolResume {
  state: RunState;
  decisions?: Decisions;
}

/** Wraps `agent` as a tool; see `Agent.asTool`. */
export function agentTool(agent: Agent, options: AgentToolOptions): Tool<any, any> {
  if (options === null || typeof options !== 'object' || typeof options.description !== 'string') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `asTool(options): expected { name?, description: string, input? }, received ${describe(options)}`,
    );
  }
  const name = options.name ?? agent.name;
  const custom = options.input !== undefined;
  return tool({
    name,
    description: options.description,
    parameters:
      options.input ?? v.object({ input: v.string().describe(`The request for ${name}`) }),
    execute: async (args: unknown, ctx: ToolRunContext) => {
      const runOptions = { signal: ctx.signal, runId: `${ctx.runId}:${ctx.toolCallId}` };
      const result =
        ctx.resumeValue === undefined
          ? await agent.generate(
              custom ? JSON.stringify(args) : (args as { input: string }).input,
              runOptions,
            )
          : await agent.resume(...readResume(ctx.resumeValue), runOptions);
      if (result.status === 'suspended') {
        ctx.suspend(`agent "${name}" is waiting for decisions`, {
          pending: result.pending,
          state: result.state,
        });
      }
      return result.text;
    },
  });
}

function readResume(value: unknown): [RunState, Decisions] {
  const r = value as Partial<AgentToolResume> | null;
  if (r === null || typeof r !== 'object' || r.state === undefined) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `resume value for an agent tool: expected { state, decisions? }, received ${describe(value)}`,
    );
  }
  return [r.state, r.decisions ?? {}];
}
