/**
 * PostgreSQL's `text` cannot hold NUL (U+0000), which model output, error messages and
 * notes may contain. The PostgreSQL driver passes every string through these two
 * functions on its way in and out: NUL travels as U+FFFF `0`, and U+FFFF itself (a
 * noncharacter, all but absent from real text) as U+FFFF `1`. Any other string is
 * stored as it is, so equality in SQL still works on the stored form. Decision 062.
 */

const MARK = '\uffff';

/** The stored form of a parameter: strings with NUL or U+FFFF escaped, anything else as it is. */
export function encodeText(value: unknown): unknown {
  if (typeof value !== 'string' || !/[\0\uffff]/.test(value)) return value;
  return value.replace(/[\0\uffff]/g, (c) => (c === '\0' ? `${MARK}0` : `${MARK}1`));
}

/** The string a stored value stands for (the inverse of {@link encodeText}). */
export function decodeText(value: unknown): unknown {
  if (typeof value !== 'string' || !value.includes(MARK)) return value;
  return value.replace(/\uffff([01])/g, (_, digit: string) => (digit === '0' ? '\0' : MARK));
}

/** Decodes every string column of the rows, in place. */
export function decodeRows<Row>(rows: Row[]): Row[] {
  for (const row of rows as Record<string, unknown>[]) {
    for (const key of Object.keys(row)) row[key] = decodeText(row[key]);
  }
  return rows;
}
