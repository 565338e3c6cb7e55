/**
 * `ai/model/core`: the contract every model keeps and the pieces every adapter builds a
 * turn with — the `Model` interface and its request, result, event and usage types,
 * `ModelError`, the turn builder, tool argument parsing, the replay of a result as
 * stream events, the JSON Schema walking the schema dialects share, and `isRecord`.
 *
 * May import: `src/internal/` and other modules' `index.ts` (for `ai/tool`'s types);
 * nothing of the other rooms of `ai/model` (each of them imports this one).
 */
export {
  type AnswerPiece,
  AnswerSize,
  DEFAULT_MAX_ANSWER_CHARS,
  maxAnswerCharsOf,
} from './answer-size.ts';
export { isModel } from './is-model.ts';
export { isRecord } from './is-record.ts';
export { ModelError, type ModelErrorDetails } from './model-error.ts';
export { resultEvents } from './result-events.ts';
export {
  allowsNull,
  isObjectSchema,
  pointer,
  refTarget,
  resolveRef,
  SILENT_KEYWORDS,
} from './schema-walk.ts';
export { parseToolArgs } from './tool-args.ts';
export { TurnBuilder, usageOf } from './turn-builder.ts';
export type * from './types.ts';
