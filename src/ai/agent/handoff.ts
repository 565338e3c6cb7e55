/**
 * A handoff: the tool through which the model transfers the run to another agent, with
 * its name, description, argument schema and the filter of what the next agent sees.
 */
import { checkOptionalType } from '../../internal/option-type.ts';
import { TOOL_NAME_RULE } from '../../internal/tool-name.ts';
import type { SchemaLike } from '../../validate/index.ts';
import type { ModelMessage } from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import { describe } from './describe.ts';

/** What `handoff(agent, options)` accepts. */
export interface HandoffOptions {
  /** The tool name the model calls; default `transfer_to_<agent name>` (cut to the providers' charset). */
  toolName?: string;
  /** What the model reads about the handoff; default the agent's `description`, else "Hand the conversation to <name>". */
  description?: string;
  /** A schema of arguments the model must give (checked like a tool's; a bad call is answered with an error the model repairs). */
  args?: SchemaLike;
  /**
   * What the next agent's requests hold of the conversation before the handoff: called
   * with those messages before each of its requests, it returns the ones to send (the run
   * state keeps them all). Must be pure and deterministic; the messages since the handoff
   * are always sent.
   */
  inputFilter?: (messages: ModelMessage[]) => ModelMessage[];
}

/** An agent as the handoff graph knows it: anything with a name (an `Agent`). */
export interface HandoffTarget {
  readonly name: string;
}

/**
 * One entry of an agent's `handoffs`, made by {@link handoff}: the target agent and how the
 * model sees the transfer.
 */
export class Handoff {
  readonly agent: HandoffTarget;
  readonly toolName: string;
  readonly description: string | undefined;
  readonly args: SchemaLike | undefined;
  readonly inputFilter: HandoffOptions['inputFilter'];

  constructor(target: HandoffTarget, options: HandoffOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw invalid(
        `handoff(agent, options): expected an options object, received ${describe(options)}`,
      );
    }
    const check = (value: unknown, type: 'string' | 'function', key: string) =>
      checkOptionalType(value, type, `handoff(agent, options).${key}`, (m) => invalid(m));
    check(options.toolName, 'string', 'toolName');
    check(options.description, 'string', 'description');
    check(options.inputFilter, 'function', 'inputFilter');
    if (options.args !== undefined && (options.args === null || typeof options.args !== 'object')) {
      throw invalid(
        `handoff(agent, options).args: expected a schema (a v builder, JSON Schema or Standard Schema), received ${describe(options.args)}`,
      );
    }
    if (options.toolName !== undefined && !TOOL_NAME_RULE.test(options.toolName)) {
      throw new AgentError(
        'INVALID_TOOL',
        `handoff(agent, options).toolName: "${options.toolName}" breaks the providers' rule ${TOOL_NAME_RULE} (1 to 64 letters, digits, _ or -)`,
      );
    }
    this.agent = target;
    this.toolName = options.toolName ?? defaultToolName(target.name);
    this.description = options.description;
    this.args = options.args;
    this.inputFilter = options.inputFilter;
  }
}

/**
 * A handoff to `agent` for another agent's `handoffs` option: the model sees it as a tool
 * (default name `transfer_to_<name>`); calling it hands the run to `agent`, which goes on
 * with the conversation (filtered by `inputFilter`), its own instructions, tools and model.
 *
 * @example
 * ```ts
 * import { agent, handoff } from 'fino:ai/agent';
 * import { scriptedModel } from 'fino:ai/model';
 * import { v } from 'fino:validate';
 *
 * const refunds = agent({ name: 'refunds', model: scriptedModel(['Refund issued.']) });
 * const triage = agent({
 *   name: 'triage',
 *   model: scriptedModel([
 *     { toolCalls: [{ name: 'transfer_to_refunds', args: { reason: 'wants a refund' } }] },
 *   ]),
 *   handoffs: [handoff(refunds, { args: v.object({ reason: v.string() }) })],
 * });
 * const result = await triage.generate('I want my money back.');
 * if (result.status === 'done') console.log(result.agent, result.text); // refunds Refund issued.
 * ```
 */
export function handoff(agent: HandoffTarget, options?: HandoffOptions): Handoff {
  if (agent === null || typeof agent !== 'object' || typeof agent.name !== 'string') {
    throw invalid(`handoff(agent): expected an agent (from agent()), received ${describe(agent)}`);
  }
  return new Handoff(agent, options);
}

/** `transfer_to_<name>`, every character outside the providers' tool-name charset made `_`, cut to 64. */
export function defaultToolName(name: string): string {
  return `transfer_to_${name.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
}

const invalid = (message: string) => new AgentError('INVALID_ARGUMENT', message);
