/**
 * The `fino` command line: `fino run`, `fino tools` and the other commands listed in
 * `commands/index.ts`; `bin/fino.js` calls `main()`. Also exports what commands share:
 * the `Command` shape and `loadTasks()` for loading a user module's tools.
 *
 * @module
 */

export { type Command, type CommandIo, writeLine } from './command.ts';
export { commands } from './commands/index.ts';
export { loadTasks, selectTask } from './load-module.ts';
export { main, processIo } from './main.ts';
export { reportError } from './report-error.ts';
