/**
 * `ai/mcp/server/tasks`: durable MCP Tasks (2025-11-25, and the Tasks extension of
 * 2026-07-28) served by `mcpServer()` — the `tasks/get|list|result|cancel|update`
 * handlers (`task-server.ts`, a waiting task's questions in `task-input-requests.ts`), the runner that creates,
 * runs, resumes and cancels tasks (`task-runner.ts` and its parts: slots, leases,
 * quota, poller, questions, progress), their wire form (`task-wire.ts`), and where they
 * are kept: `task-store.ts` (`mcpTaskStore()`, one `mcp_tasks` row beside each task's
 * session run; decisions 096, 156).
 *
 * May import: the server room's files (`../call-tool.ts`, `../progress-notifier.ts`,
 * `../server-requests.ts`, `../approval-hint.ts`, `../invalid-params.ts`, `../input-rounds.ts`), `../../protocol/index.ts`,
 * `ai/session` and `ai/agent` through their `index.ts`, `src/internal/`. Never
 * `../server.ts` or `../http/`.
 */

export {
  createdTaskResult,
  extensionRequired,
  optsIntoTasks,
  TASKS_EXTENSION,
} from './task-extension.ts';
export { type McpServerTaskOptions, taskSetting } from './task-options.ts';
export { TaskRunner } from './task-runner.ts';
export { serveTasks, TASKS_CAPABILITY, TaskServer } from './task-server.ts';
export {
  type McpTaskCursor,
  type McpTaskRecord,
  type McpTaskStore,
  mcpTaskStore,
  type NewMcpTask,
} from './task-store.ts';
export { ownerOf } from './task-wire.ts';
