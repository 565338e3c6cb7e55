/**
 * `ai/model/openai`: `openai()` — OpenAI's Responses API and the Chat Completions API of
 * any compatible server — with its strict-mode schema dialect, its tool definitions, the
 * tools OpenAI's servers run (`openai.tools`) and the calls they report.
 *
 * May import: `../core/`, `../wire/`, `../usage/`, `../provider/` and `src/internal/`;
 * never another provider room.
 */
export { type OpenAIOptions, openai } from './openai.ts';
export type { McpToolOptions, WebSearchOptions } from './provider-tools.ts';
export { fromOpenAIStrictArgs, toOpenAIStrictSchema } from './strict-schema.ts';
export { type OpenAITool, type OpenAIToolOptions, toOpenAITool } from './tool.ts';
