/**
 * Who is signed in, as the server says (decision 188): the `identify` hook of the inbox's
 * options reads it from the request — a header a trusted proxy sets, the host app's
 * session cookie — and the audit trail records it. Without one, a typed name is recorded
 * marked unverified.
 */
import { describeValue } from '../../../internal/describe-value.ts';

/** Who a request comes from, as the host knows them. */
export interface InboxIdentity {
  /** The stable id the audit trail records as `by` (a user name, an e-mail address, …). */
  id: string;
  /** The name the pages show ("Signed in as …"); the id when absent. */
  name?: string;
}

/** Reads who a request comes from; `undefined` when nobody is signed in. */
export type IdentifyRequest = (
  request: Request,
) => InboxIdentity | undefined | Promise<InboxIdentity | undefined>;

/** The longest id or name an identity may have, in characters. */
export const MAX_IDENTITY_CHARS = 200;

/** What a typed name is recorded with when nothing vouches for it: `ana (unverified)`. */
export const UNVERIFIED = ' (unverified)';

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether `text` is a string of 1 to 200 printable characters. */
const printable = (text: unknown): text is string =>
  typeof text === 'string' &&
  text.trim() !== '' &&
  text.length <= MAX_IDENTITY_CHARS &&
  !CONTROL.test(text);

/** What `identify` answered, checked; a `TypeError` naming what was wrong otherwise. */
export function checkedIdentity(given: unknown): InboxIdentity | undefined {
  if (given === undefined || given === null) return undefined;
  const { id, name } = (typeof given === 'object' ? given : {}) as Record<string, unknown>;
  if (!printable(id) || (name !== undefined && !printable(name))) {
    throw new TypeError(
      `inbox({ identify }): expected { id, name? } of 1 to ${MAX_IDENTITY_CHARS} printable characters each, or undefined, received ${describeValue(given)}`,
    );
  }
  return name === undefined ? { id } : { id, name };
}

/**
 * An `identify` hook that reads the user from header `name` (e.g. `X-Forwarded-User`,
 * `X-Auth-Request-Email`), set by an authenticating reverse proxy. Use it only behind a
 * proxy that sets this header on every request and drops any the client sent: anyone who
 * reaches the inbox without passing the proxy can send it too.
 *
 * @example
 * ```ts
 * import { headerIdentity, inbox, memoryStore, session } from 'fino:ai/session';
 *
 * const handle = inbox({ session: session({ store: memoryStore() }), identify: headerIdentity('X-Forwarded-User') });
 * const page = await handle(new Request('http://127.0.0.1:8377/', { headers: { 'x-forwarded-user': 'ana' } }));
 * console.log((await page.text()).includes('Signed in as <strong>ana</strong>')); // true
 * ```
 */
export function headerIdentity(name: string): IdentifyRequest {
  if (typeof name !== 'string' || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
    throw new TypeError(
      `headerIdentity(name): expected an HTTP header name such as "X-Forwarded-User", received ${describeValue(name)}`,
    );
  }
  return (request) => {
    const value = request.headers.get(name)?.trim();
    return value ? { id: value } : undefined;
  };
}
