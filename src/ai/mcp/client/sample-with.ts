/**
 * `sampleWith(model)`: an `mcpClient({ onSample })` handler that answers a server's
 * `sampling/createMessage` with a fino `Model` (decision 126).
 */
import type { CreateMessageResult } from '@modelcontextprotocol/client';
import type { ContentPart, ModelMessage } from '../../../task/index.ts';
import type { GenerateRequest, Model, StopReason } from '../../model/index.ts';
import { fromSamplingContent, PartBudget, toMcpContent } from '../protocol/index.ts';
import type { SampleHandler } from './client-catalog.ts';

/** MCP's stop reasons for fino's; the others pass as fino names them. */
const STOP_REASONS: Partial<Record<StopReason, string>> = {
  end: 'endTurn',
  max_tokens: 'maxTokens',
};

/**
 * Answers a server's sampling requests with `model`: the request's messages, system
 * prompt, `maxTokens` and temperature go to `model.generate()`, and its answer's text (an
 * image or audio part when it answers without text) goes back with the model's `id`. The server's `modelPreferences` are not
 * consulted (the model is the one you chose).
 *
 * @example
 * ```ts
 * import { InMemoryTransport } from '@modelcontextprotocol/server';
 * import { mcpClient, mcpServer, sampleWith } from 'fino:ai/mcp';
 * import { scriptedModel } from 'fino:ai/model';
 * import { tool } from 'fino:ai/tool';
 * import { v } from 'fino:validate';
 *
 * const summarize = tool({
 *   name: 'summarize',
 *   parameters: v.object({ text: v.string() }),
 *   execute: async ({ text }, ctx) =>
 *     (await ctx.sample({ messages: [{ role: 'user', content: `Summarize: ${text}` }], maxTokens: 100 })).text,
 * });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await mcpServer({ name: 'notes', version: '1.0.0', tools: [summarize] }).connect(serverSide);
 * const client = mcpClient({ transport: clientSide, onSample: sampleWith(scriptedModel(['Short.'])) });
 * const [remote] = await client.tools();
 * console.log((await remote.invoke({ text: 'a long text' })).content); // [{ type: 'text', text: 'Short.' }]
 * await client.close();
 * ```
 */
export function sampleWith(model: Model): SampleHandler {
  if (typeof model?.generate !== 'function') {
    throw new TypeError(
      `sampleWith: expected a fino Model (with generate()), received ${model === null ? 'null' : typeof model}`,
    );
  }
  return async (request): Promise<CreateMessageResult> => {
    const budget = new PartBudget('sampleWith');
    const messages: ModelMessage[] = request.messages.map((message, index) => ({
      role: message.role,
      content: fromSamplingContent(
        message.content,
        `sampleWith: messages[${index}].content`,
        budget,
      ),
    }));
    const generate: GenerateRequest = { messages, maxTokens: request.maxTokens };
    if (request.systemPrompt !== undefined) generate.system = request.systemPrompt;
    if (request.temperature !== undefined) generate.temperature = request.temperature;
    const answer = await model.generate(generate);
    // Sampling answers one block: the text, else an image or audio part; tool calls stay behind.
    const media =
      typeof answer.message.content === 'string'
        ? undefined
        : answer.message.content.find((part) => part.type === 'image' || part.type === 'audio');
    const first: ContentPart =
      answer.text === '' && media !== undefined ? media : { type: 'text', text: answer.text };
    return {
      role: 'assistant',
      model: model.id,
      content: toMcpContent(first) as CreateMessageResult['content'],
      stopReason: STOP_REASONS[answer.stopReason] ?? answer.stopReason,
    };
  };
}
