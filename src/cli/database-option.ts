/**
 * `--db`, as `fino sessions` and `fino workflows` read it: a SQLite file or a
 * `postgres://` URL, else `$FINO_DATABASE_URL`, else the command's default file.
 */
import { isAbsolute, resolve } from 'node:path';
import { v } from '../validate/index.ts';
import type { CommandIo } from './command.ts';

/** Where a command's store is: a PostgreSQL URL, or a SQLite file's absolute path. */
export type DatabaseTarget = { url: string } | { path: string };

/** The `--db` flag's schema, naming `defaultFile` in its help. */
export const databaseOption = (defaultFile: string) =>
  v
    .string()
    .optional()
    .describe(
      `a SQLite file or a postgres:// URL (default: $FINO_DATABASE_URL, else ${defaultFile})`,
    );

/** The database `--db` names (`db`), else `$FINO_DATABASE_URL`, else `defaultFile` in `io.cwd`. */
export function databaseTarget(
  db: string | undefined,
  io: CommandIo,
  defaultFile: string,
): DatabaseTarget & { given: string } {
  const given = db ?? (io.env.FINO_DATABASE_URL || defaultFile);
  if (/^postgres(ql)?:\/\//.test(given)) return { url: given, given };
  return { path: isAbsolute(given) ? given : resolve(io.cwd, given), given };
}
