/**
 * Loads the tasks (and tools) a user's module exports, for `fino run`, `fino tools`,
 * `fino mcp` and any command that serves a module's tools.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AnyTask, isTask, UsageError } from '../task/index.ts';
import type { CommandIo } from './command.ts';

/**
 * Imports the module at `file` (relative to `io.cwd`) through `io.importModule`. Throws
 * a `UsageError` naming the path when there is no such file, rather than Node's error,
 * which names the CLI's own file as the importer.
 *
 * @example
 * ```ts
 * import { importUserModule } from './load-module.ts';
 * import { processIo } from './main.ts';
 *
 * const module = await importUserModule('agent.ts', processIo());
 * ```
 */
export async function importUserModule(
  file: string,
  io: Pick<CommandIo, 'cwd' | 'importModule'>,
): Promise<Record<string, unknown>> {
  const path = isAbsolute(file) ? file : resolve(io.cwd, file);
  if (!existsSync(path)) {
    throw new UsageError(`no such file: ${path}`, 'Check the path of the module to load.');
  }
  const url = pathToFileURL(path).href;
  return io.importModule ? io.importModule(url) : import(url);
}

/**
 * The tasks a module exports: its default export when that is a task (or an array or
 * object of tasks), otherwise every named export that is a task, ordered by export
 * name (the order of an ES module namespace).
 * TypeScript files load when the `fino/register` hook is active (the `fino` binary
 * activates it). Throws a `UsageError` when the file is missing or exports no task.
 *
 * @example
 * ```ts
 * import { loadTasks } from './load-module.ts';
 *
 * const tasks = await loadTasks('tools.ts', { cwd: process.cwd() });
 * console.log(tasks.map((t) => t.name));
 * ```
 */
export async function loadTasks(
  file: string,
  io: Pick<CommandIo, 'cwd' | 'importModule'>,
): Promise<AnyTask[]> {
  const module = await importUserModule(file, io);
  const fromDefault = tasksIn(module.default);
  if (fromDefault.length > 0) return fromDefault;
  const named = Object.keys(module)
    .filter((key) => key !== 'default')
    .map((key) => module[key])
    .filter(isTask);
  if (named.length === 0) {
    throw new UsageError(
      `${file} exports no task or tool: export one as default, or export tasks by name`,
    );
  }
  return named;
}

const tasksIn = (value: unknown): AnyTask[] => {
  if (isTask(value)) return [value];
  if (Array.isArray(value)) return value.filter(isTask);
  if (typeof value === 'object' && value !== null) return Object.values(value).filter(isTask);
  return [];
};

/**
 * Picks a task by name; with no name, the only task. Throws a `UsageError` listing the
 * available names otherwise.
 *
 * @example
 * ```ts
 * import { loadTasks, selectTask } from './load-module.ts';
 *
 * const weather = selectTask(await loadTasks('tools.ts', { cwd: '.' }), 'get_weather');
 * ```
 */
export function selectTask(tasks: readonly AnyTask[], name: string | undefined): AnyTask {
  const names = tasks.map((t) => t.name).join(', ');
  if (name === undefined) {
    if (tasks.length === 1) return tasks[0];
    throw new UsageError(`the module exports several tools; name one of: ${names}`);
  }
  const found = tasks.find((t) => t.name === name);
  if (!found) throw new UsageError(`no tool named "${name}"; available: ${names}`);
  return found;
}
