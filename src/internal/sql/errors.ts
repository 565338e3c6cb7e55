/**
 * The failures of the shared SQL layer that a store reports to its callers, as a stable
 * `code`. `src/internal` knows no module's error class: each store maps these to its own
 * (the session store to `SessionError` with the same code, `UNAVAILABLE` becoming
 * `STORE_UNAVAILABLE`) in one place — see `mapSqlErrors` in `driver.ts`.
 *
 * - `DRIVER_MISSING`: the database package the store needs is not installed; the message
 *   names the command that installs it;
 * - `SCHEMA_TOO_NEW`: the database was migrated by a newer fino than this one;
 * - `UNAVAILABLE`: the database kept failing with errors that are normally transient
 *   (connection lost or refused, serialization failure, SQLite busy) after the retries;
 *   the last such error is the `cause`.
 */
export type SqlFailureCode = 'DRIVER_MISSING' | 'SCHEMA_TOO_NEW' | 'UNAVAILABLE';

/** A failure of the SQL layer, to be mapped to the store's own error class. */
export class SqlFailure extends Error {
  override name = 'SqlFailure';
  readonly code: SqlFailureCode;

  constructor(code: SqlFailureCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
