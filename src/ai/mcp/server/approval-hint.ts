/**
 * What to do when a call needs a human and the MCP client cannot ask one (it declares no
 * elicitation — the MCP Inspector, many agent frameworks): trust the client's own
 * confirmation, or let the call wait as a task for an approval given elsewhere — the
 * `fino sessions` command line or the inbox (decision 042; issue 24, item 13).
 */
import { shellQuote } from '../../../internal/shell-quote.ts';
import type { AnyTask } from '../../../task/index.ts';

/** The routes around a client that cannot ask its user, for a call to `tool`. */
export function noElicitationHint(tool: AnyTask): string {
  const trust =
    "To run it anyway, serve with approval: 'client' (fino mcp --approval client, npm start -- --approval client) to trust the client's own confirmation";
  const wait =
    tool.execution === undefined
      ? `or declare "${tool.name}" with execution: 'task-optional' so a call made as a task waits for approval from "fino sessions approve" or the inbox (fino sessions serve)`
      : 'or call it as a task (params.task): the task waits for approval from "fino sessions approve" or the inbox (fino sessions serve)';
  return `${trust}, ${wait}.`;
}

/** What the hint says for `--db` when the server was given a store it knows no path of. */
export const UNNAMED_TASK_STORE = "<the server's task store>";

/**
 * Where a waiting task can be approved without the MCP client; `db` names its task
 * store's file, or is {@link UNNAMED_TASK_STORE}. The path and the id are shell words
 * (decision 163): a path with a space or a `$` pastes as it is printed; the placeholder
 * is for a person to replace, so it is shown as it is.
 */
export function taskApprovalHint(taskId: string, db: string): string {
  const dbWord = db === UNNAMED_TASK_STORE ? db : shellQuote(db);
  const idWord = shellQuote(taskId);
  return `Approve it from a client that can ask its user (tasks/result), with "fino sessions approve --db ${dbWord} ${idWord} call", or in the inbox (fino sessions serve --db ${dbWord}).`;
}
