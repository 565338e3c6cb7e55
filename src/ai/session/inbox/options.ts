/**
 * The inbox's options and their checks: which session and workflow runs it shows, who
 * may open it (one token, or one per approver), where it is mounted, how often it looks.
 */
import { describeValue } from '../../../internal/describe-value.ts';
import { checkDuration } from '../../../internal/duration.ts';
import type { Session } from '../session.ts';
import type { IdentifyRequest } from './identity.ts';
import { DEFAULT_LOGIN_MS } from './logins.ts';
import type { InboxWorkflows } from './workflows.ts';

/** Options of {@link inbox}. */
export interface InboxOptions {
  /** The session whose runs the inbox shows and decides (with an agent, decisions continue the run). */
  session: Session;
  /**
   * Workflow runs to show and decide as well: `workflowRuns(store)` from `fino:workflow`.
   * Their pending decisions are listed with the session's, and each run has a page with
   * its history as a timeline.
   */
  workflows?: InboxWorkflows;
  /**
   * The access token. When set, a browser must arrive once with `?token=…`; it is then
   * logged in by a random login id in an HttpOnly, SameSite=Strict cookie named after
   * the port (never the token itself), until `loginMs` passes or it logs out. Required
   * by `fino sessions serve` on any address other than loopback.
   */
  token?: string;
  /**
   * A token per approver, `{ ana: 'secret-1', bo: 'secret-2' }`, instead of `token`: the
   * audit trail records the name whose token opened the browser's login, and the
   * forms ask for no name. Not with `token` or `by`.
   */
  tokens?: Readonly<Record<string, string>>;
  /** How long a login lasts, in milliseconds (default 12 hours). */
  loginMs?: number;
  /** Where the handler is mounted, e.g. `/inbox` (default: the root). */
  basePath?: string;
  /**
   * Who is signed in, as your server knows it (decision 188): from a header your
   * authenticating proxy sets (`headerIdentity('X-Forwarded-User')`) or your app's
   * session cookie. The audit trail records the identity's `id` as `by`, the pages say
   * "Signed in as …", the forms ask for no name, and a request it answers `undefined`
   * for gets 401. Not with `tokens` or `by`.
   */
  identify?: IdentifyRequest;
  /**
   * Who decides, as recorded in the audit trail: a fixed name, or a function of the
   * request (prefer `identify`, which also shows who is signed in). Without it, `tokens`
   * or `identify`, the forms ask for a name, which nothing checks: it is recorded as
   * `name (unverified)`.
   */
  by?: string | ((request: Request) => string | undefined);
  /** How often the live updates look at the store, in milliseconds (default 1 000). */
  pollMs?: number;
  /** Told of unexpected failures, which the browser sees as a plain 500 page (default `console.error`). */
  onError?: (error: unknown) => void;
}

/** The options of an inbox, checked, with the defaults filled in. */
export interface CheckedInboxOptions {
  session: Session;
  workflows?: InboxWorkflows;
  /** The tokens that open the inbox as `[approver, token]` pairs (none: it is open). */
  approvers: Array<[string, string]>;
  /** The mount path without its trailing slash (`''` at the root). */
  base: string;
  pollMs: number;
  loginMs: number;
}

/** Checks `options`; throws a `TypeError` naming the first that is wrong. */
export function checkOptions(options: InboxOptions): CheckedInboxOptions {
  const { session } = options ?? ({} as InboxOptions);
  if (!session || typeof session.list !== 'function' || typeof session.approve !== 'function') {
    throw new TypeError(
      `inbox({ session }): session: expected a Session (from session({ store })), received ${describeValue(session)}`,
    );
  }
  const { workflows } = options;
  if (workflows !== undefined) checkWorkflows(workflows);
  const approvers = accessTokens(options);
  checkIdentify(options);
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  if (base !== '' && !/^\/[A-Za-z0-9._~/-]*$/.test(base)) {
    throw new TypeError(
      `inbox({ basePath }): expected a path such as "/inbox", received ${JSON.stringify(options.basePath)}`,
    );
  }
  const pollMs = checkDuration('inbox: pollMs', options.pollMs ?? 1_000);
  const loginMs = checkDuration('inbox: loginMs', options.loginMs ?? DEFAULT_LOGIN_MS);
  return { session, workflows, approvers, base, pollMs, loginMs };
}

/** Refuses anything but workflow runs (a workflow store, in particular). */
function checkWorkflows(workflows: InboxWorkflows): void {
  const given = (workflows ?? {}) as unknown as Record<string, unknown>;
  const isStore = typeof given.claimNext === 'function';
  if (
    isStore ||
    !['list', 'get', 'history', 'pending', 'decide'].every((m) => typeof given[m] === 'function')
  ) {
    throw new TypeError(
      `inbox({ workflows }): expected workflow runs (workflowRuns(store) from fino:workflow), received ${isStore ? 'a workflow store' : describeValue(workflows)}`,
    );
  }
}

/** Refuses an `identify` that is no function, or that comes with `tokens` or `by`. */
function checkIdentify({ identify, tokens, by }: InboxOptions): void {
  if (identify === undefined) return;
  if (typeof identify !== 'function') {
    throw new TypeError(
      `inbox({ identify }): expected a function of the request returning { id, name? } or undefined, received ${describeValue(identify)}`,
    );
  }
  if (tokens !== undefined || by !== undefined) {
    throw new TypeError(
      `inbox({ identify }): expected identify alone, received identify with ${tokens !== undefined ? 'tokens' : 'by'} (the identity names who decides)`,
    );
  }
}

/**
 * The tokens that open the inbox, as `[approver, token]` pairs (approver `''` for the one
 * shared `token`); none when the inbox is open. Throws for a bad or ambiguous set.
 */
function accessTokens(options: InboxOptions): Array<[string, string]> {
  const { token, tokens } = options;
  const checkToken = (what: string, value: unknown) => {
    if (typeof value !== 'string' || value.length < 8) {
      throw new TypeError(
        `inbox({ ${what} }): expected a string of at least 8 characters, received ${typeof value === 'string' ? `${value.length} characters` : typeof value}`,
      );
    }
  };
  if (tokens === undefined) {
    if (token !== undefined) checkToken('token', token);
    return token === undefined ? [] : [['', token]];
  }
  if (token !== undefined || options.by !== undefined) {
    throw new TypeError(
      `inbox({ tokens }): expected tokens alone, received tokens with ${token !== undefined ? 'token' : 'by'} (the approver is the name whose token logged in)`,
    );
  }
  if (tokens === null || typeof tokens !== 'object' || Array.isArray(tokens)) {
    throw new TypeError(
      `inbox({ tokens }): expected an object of approver names to tokens, received ${describeValue(tokens)}`,
    );
  }
  const pairs = Object.entries(tokens);
  if (pairs.length === 0) {
    throw new TypeError('inbox({ tokens }): expected at least one approver, received none');
  }
  for (const [name, value] of pairs) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
    if (name === '' || name.length > 200 || /[\u0000-\u001f\u007f]/.test(name)) {
      throw new TypeError(
        `inbox({ tokens }): expected approver names of 1 to 200 printable characters, received ${JSON.stringify(name.slice(0, 40))}`,
      );
    }
    checkToken(`tokens.${name}`, value);
  }
  if (new Set(pairs.map(([, value]) => value)).size !== pairs.length) {
    throw new TypeError('inbox({ tokens }): expected a different token for each approver');
  }
  return pairs;
}
