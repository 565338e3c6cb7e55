/**
 * The Tasks extension of MCP 2026-07-28 (SEP-2663): its identifier, under which a server
 * advertises it in `capabilities.extensions` and a client opts in per request in its
 * client capabilities (decisions 213, 214).
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
