/**
 * `fino:task`: `Task` — validated execution, timeouts, output writers, the `invoke()`
 * tool_result contract, command-line parsing and help — and the content, message and
 * tool-definition types every module shares.
 *
 * @module
 */

export { isTask, TASK_BRAND } from './brand.ts';
export type { CliOption, CliSpec, CliValueType } from './cli-spec.ts';
export {
  type ElicitAnswer,
  type ElicitRequest,
  type ListRootsRequest,
  LOG_LEVELS,
  type LogEntry,
  type LogFn,
  type LogLevel,
  type Root,
  type SampleMessage,
  type SampleRequest,
  type SampleResult,
} from './client-requests.ts';
export type * from './content.ts';
export { TaskTimeoutError, UsageError } from './errors.ts';
export {
  configureIsolation,
  type Isolation,
  type IsolationCapacity,
  type WorkerIsolation,
  type WorkerResourceLimits,
} from './isolation/index.ts';
export { SuspendSignal } from './suspend-signal.ts';
export { type ParsedCommand, type ParseOptions, Task, task } from './task.ts';
export type * from './types.ts';
