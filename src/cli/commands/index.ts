/**
 * The `fino` subcommands, in the order `fino --help` lists them. Each lives in its own
 * file in this folder and exports a `Command`; the table holds its name and summary and
 * loads the file only when the command runs, so `fino --help` and `fino --version` load
 * no command and each command loads only what it uses. Add one entry to add a command.
 * The files: `run.ts`, `tools.ts`, `mcp.ts`, `sessions.ts` (with `sessions-serve.ts` for
 * `fino sessions serve` and `thread-lines.ts` for a thread's lines) and `workflows.ts`.
 *
 * May import: the CLI's shared files (`../command.ts`, `../subcommand.ts`,
 * `../task-command.ts`, `../load-module.ts`, `../database-option.ts`, `../exit-codes.ts`,
 * `../report-error.ts`, the output and input helpers beside them), every module through
 * its `index.ts`, and `src/internal/`; never `../main.ts` or `../index.ts`, which list
 * the commands from this file.
 */
import type { Command } from '../command.ts';
import { TOOL_FORMATS } from '../tool-formats.ts';

/** A command as `fino --help` lists it, with the import that loads it. */
export interface CommandEntry {
  name: string;
  /** One line for `fino --help`. */
  summary: string;
  load(): Promise<Command>;
}

/**
 * @example
 * ```ts
 * import { commands } from './index.ts';
 *
 * commands.map((c) => c.name); // → ['run', 'tools', 'mcp', 'sessions', 'workflows']
 * const run = await commands[0].load();
 * ```
 */
export const commands: readonly CommandEntry[] = [
  {
    name: 'run',
    summary: 'Run a tool or task exported by a module',
    load: async () => (await import('./run.ts')).run,
  },
  {
    name: 'tools',
    summary: `Print the tool definitions a module exports (${TOOL_FORMATS.join(', ')})`,
    load: async () => (await import('./tools.ts')).tools,
  },
  {
    name: 'mcp',
    summary: "Serve a module's tools over MCP (stdio or Streamable HTTP)",
    load: async () => (await import('./mcp.ts')).mcp,
  },
  {
    name: 'sessions',
    summary: 'List durable runs and approve, reject or resume their pending calls',
    load: async () => (await import('./sessions.ts')).sessions,
  },
  {
    name: 'workflows',
    summary:
      'List durable workflow runs; start, signal, cancel them and decide their pending calls',
    load: async () => (await import('./workflows.ts')).workflows,
  },
];
