/**
 * `fino:ai/model`: the `Model` interface, provider adapters (OpenAI-compatible Chat
 * Completions, Anthropic Messages), their schema dialects, and `scriptedModel` for tests.
 *
 * @module
 */

export type { ToolResultObject } from '../tool/index.ts';
export * from './scripted-model.ts';
export type * from './types.ts';
