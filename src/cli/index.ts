/**
 * The `fino` command line: `fino run`, `fino tools` and the other commands listed in
 * `commands/index.ts`; `bin/fino.js` calls `main()`. Also exports what commands and
 * other entry points (`npm start`) share: the `Command` shape and `taskCommand` (a
 * command built as a task), the exit codes, the one error format and the terminal-safe
 * escaping of stored text. Everything here loads fast: commands are imported only when
 * they run, and `taskCommand` needs `fino:task` only in the commands that use it.
 *
 * @module
 */

export {
  type Command,
  type CommandIo,
  isInteractive,
  writeLine,
} from './command.ts';
export { type CommandEntry, commands } from './commands/index.ts';
export { escapeText, safeJson } from './escape-text.ts';
export { EXIT } from './exit-codes.ts';
export { listenProblem } from './listen-problem.ts';
export { main, processIo } from './main.ts';
export { isVerbose, reportError, reportProblem } from './report-error.ts';
export { type CommandTask, runCommandTask, taskCommand } from './task-command.ts';
