/**
 * What every durable store's constructor checks of its arguments (`sqliteStore`,
 * `sqliteWorkflowStore`, `postgresStore`, `postgresWorkflowStore`): a file path, a busy
 * timeout, a PostgreSQL URL or pool, a schema name. Each message names the constructor.
 */
import { typeName } from '../describe-value.ts';
import { checkDuration } from '../duration.ts';
import type { PgPoolLike } from '../sql/index.ts';

/** A SQLite store's file and busy timeout (default 10 000 ms), checked. */
export function sqliteArguments(
  store: string,
  path: unknown,
  options: { busyTimeoutMs?: number } | undefined,
): { path: string; busyTimeoutMs: number } {
  if (typeof path !== 'string' || path === '') {
    throw new TypeError(`${store}(path): expected a file path, received ${String(path)}`);
  }
  const busyTimeoutMs = checkDuration(
    `${store}: busyTimeoutMs`,
    options?.busyTimeoutMs ?? 10_000,
    'nonNegative',
  );
  return { path, busyTimeoutMs };
}

const isPool = (value: unknown): value is PgPoolLike =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as PgPoolLike).query === 'function' &&
  typeof (value as PgPoolLike).connect === 'function' &&
  typeof (value as PgPoolLike).end === 'function';

/**
 * A PostgreSQL store's URL or pool and schema name, checked: a `TypeError` for what is
 * neither, `invalid(message)` (the module's `INVALID_ARGUMENT`) for a schema that is not
 * a plain identifier.
 */
export function postgresArguments(
  store: string,
  urlOrPool: unknown,
  schema: unknown,
  invalid: (message: string) => Error,
): { urlOrPool: string | PgPoolLike; schema: string | undefined } {
  if (typeof urlOrPool !== 'string' && !isPool(urlOrPool)) {
    const type = typeName(urlOrPool);
    throw new TypeError(
      `${store}(urlOrPool): expected a postgres:// URL or a pg.Pool, received ${type === 'object' ? 'an object that is not a pg.Pool' : type}`,
    );
  }
  if (
    schema !== undefined &&
    (typeof schema !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
  ) {
    throw invalid(
      `${store}: schema: expected a plain identifier (letters, digits, _), received ${JSON.stringify(schema)}`,
    );
  }
  return { urlOrPool, schema };
}
