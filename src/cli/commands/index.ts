/**
 * The `fino` subcommands, in the order `fino --help` lists them. Each lives in its own
 * file in this folder and exports a `Command`; add one line here to add a command.
 */
import type { Command } from '../command.ts';
import { mcp } from './mcp.ts';
import { run } from './run.ts';
import { sessions } from './sessions.ts';
import { tools } from './tools.ts';

/**
 * @example
 * ```ts
 * import { commands } from './index.ts';
 *
 * commands.map((c) => c.name); // → ['run', 'tools', …]
 * ```
 */
export const commands: readonly Command[] = [run, tools, mcp, sessions];
