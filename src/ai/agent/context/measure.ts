import {
  estimateMessageTokens,
  estimateTokens,
  type Model,
  type ModelMessage,
  type ToolDefinition,
} from '../../model/index.ts';

/**
 * Token estimates for the context step, for one agent's model (`estimateMessageTokens`
 * caches each message's count, so a request costs one count per new message).
 */
export class ContextMeasure {
  readonly #model: Model;

  constructor(model: Model) {
    this.#model = model;
  }

  readonly message = (message: ModelMessage): number => estimateMessageTokens(message, this.#model);

  /** The request's tokens outside its messages: system prompt and tool definitions. */
  fixed(system: string | undefined, tools: ToolDefinition[] | undefined): number {
    const request: Parameters<typeof estimateTokens>[0] = { messages: [] };
    if (system !== undefined) request.system = system;
    if (tools !== undefined && tools.length > 0) request.tools = tools;
    return estimateTokens(request, this.#model);
  }
}
