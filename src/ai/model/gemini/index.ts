/**
 * `ai/model/gemini`: `gemini()` over the Gemini API (`generateContent`, v1beta) — its
 * schema dialect, its contents and function declarations, and the reading of its answers.
 *
 * May import: `../core/`, `../wire/`, `../usage/`, `../provider/` and `src/internal/`;
 * never another provider room.
 */
export { type GeminiOptions, gemini } from './gemini.ts';
export { toGeminiSchema } from './schema.ts';
export { type GeminiTool, toGeminiTool } from './tool.ts';
