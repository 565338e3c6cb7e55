/**
 * `ai/mcp/client/tasks`: calling a remote tool as an MCP task — creating it, polling it
 * to its end, cancelling it, reading the server's answers field by field
 * (`remote-task.ts`, `task-answers.ts`), and routing a followed task's questions to the
 * call that suspends with them (`task-inputs.ts`). Decision 098.
 *
 * May import: the MCP SDK, `src/internal/`, other modules through their `index.ts`.
 * Nothing else of `ai/mcp`.
 */
export {
  type RemoteTaskInput,
  type RemoteTaskResume,
  runRemoteTask,
  type TaskRequests,
  type TaskTiming,
} from './remote-task.ts';
export { ownField, readServerProgress } from './task-answers.ts';
export { TaskInputs } from './task-inputs.ts';
