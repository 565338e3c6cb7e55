/**
 * `ai/model/anthropic`: `anthropic()` over the Anthropic Messages API — its request body
 * (extended thinking, prompt caching), its messages and tools, and the reading of its
 * answers, a turn the API pauses included.
 *
 * May import: `../core/`, `../wire/`, `../usage/`, `../provider/` and `src/internal/`;
 * never another provider room.
 */
export { type AnthropicOptions, anthropic } from './anthropic.ts';
export { type AnthropicTool, toAnthropicTool } from './tool.ts';
