/**
 * `ai/mcp/protocol`: what the server and the client of `ai/mcp` read and write the same
 * way — fino content parts ↔ MCP content blocks and call results (and sampling messages'
 * content, a part or an array of parts), tool annotations ↔ a
 * tool's `risk`/`sideEffects`/`idempotent`/`effects`, the approval `_meta` keys a fino
 * server sets and a fino client reads, and structured output checked against a tool's
 * output schema, and which era a protocol revision belongs to (`revisions.ts`).
 *
 * May import: the MCP SDK, `src/internal/`, and other modules through their `index.ts`
 * (`task`, `validate`). Never `server/` or `client/`: both import this room, through
 * this file.
 */
export { fromAnnotations, toAnnotations } from './annotations.ts';
export {
  approvalMeta,
  approvalSubject,
  hintsApproval,
  REQUIRES_APPROVAL_META_KEY,
} from './approval-meta.ts';
export {
  errorResult,
  fromMcpContent,
  resultParts,
  toCallToolResult,
  toMcpContent,
} from './content.ts';
export { isModernRevision } from './revisions.ts';
export {
  fromSamplingContent,
  MAX_SAMPLING_PARTS,
  PartBudget,
  type SamplingContentInput,
  toSamplingContent,
} from './sampling-content.ts';
export {
  type OutputValidator,
  outputValidator,
  structuredOutput,
  withTextForm,
} from './structured-output.ts';
export { TASKS_EXTENSION } from './tasks-extension.ts';
