import {
  estimateMessageTokens,
  estimateTokens,
  type Model,
  type ModelMessage,
  type ToolDefinition,
} from '../../model/index.ts';

/**
 * Token estimates for the context step, for one agent's model. `estimateMessageTokens`
 * caches each message's base count; this keeps the scaled figure for the agent's model
 * too (per message object, while its `content` is the same), which cuts about a third of the step's
 * time on a long history (bench/agent/context.ts: the family lookup and scaling cost
 * more than the rest of the step on 10,000 messages).
 */
export class ContextMeasure {
  readonly #model: Model;
  readonly #counts = new WeakMap<ModelMessage, { content: unknown; tokens: number }>();

  constructor(model: Model) {
    this.#model = model;
  }

  readonly message = (message: ModelMessage): number => {
    const known = this.#counts.get(message);
    if (known !== undefined && known.content === message.content) return known.tokens;
    const tokens = estimateMessageTokens(message, this.#model);
    this.#counts.set(message, { content: message.content, tokens });
    return tokens;
  };

  /** The request's tokens outside its messages: system prompt and tool definitions. */
  fixed(system: string | undefined, tools: ToolDefinition[] | undefined): number {
    const request: Parameters<typeof estimateTokens>[0] = { messages: [] };
    if (system !== undefined) request.system = system;
    if (tools !== undefined && tools.length > 0) request.tools = tools;
    return estimateTokens(request, this.#model);
  }
}
