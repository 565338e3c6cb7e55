/**
 * `fino:ai/tool`: tools for models — `Tool`, `tool()`, `toToolDefinition()`,
 * `SuspendSignal`, `ToolRunContext`, `ToolOptions`, `ToolResult` — and the shared
 * content and definition types, re-exported from `fino:task`.
 *
 * @module
 */

export type {
  ContentPart,
  Isolation,
  JsonSchemaObject,
  KnownRisk,
  ModelMessage,
  Risk,
  SuspendRequest,
  ToolDefinition,
  ToolResultObject,
  WorkerIsolation,
  WorkerResourceLimits,
} from '../../task/index.ts';
export { SuspendSignal } from '../../task/index.ts';
export { toToolDefinition } from './to-tool-definition.ts';
export { Tool, type ToolOptions, type ToolResult, tool } from './tool.ts';
export type { ToolRunContext } from './tool-run-context.ts';
