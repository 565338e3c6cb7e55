/**
 * The approval inbox as a web-standard request handler: `(request) => Promise<Response>`.
 */

import { describeValue } from '../../../internal/describe-value.ts';
import { checkDuration } from '../../../internal/duration.ts';
import { compile, formatIssues } from '../../../validate/index.ts';
import { SessionError } from '../errors.ts';
import { runThread } from '../run-thread.ts';
import type { Session } from '../session.ts';
import type { PendingRef, SessionRun } from '../types.ts';
import { INBOX_CSS, INBOX_JS } from './assets.ts';
import { eventStream, storeWatcher } from './events.ts';
import type { Html } from './html.ts';
import { DEFAULT_LOGIN_MS, type Login, loginTable } from './logins.ts';
import {
  declaredSchema,
  inboxPage,
  listFragment,
  messagePage,
  type PageContext,
  runPage,
  STATUS_FILTERS,
  type StatusFilter,
} from './pages.ts';
import {
  csrfTokens,
  loginCookie,
  loginCookieName,
  readCookie,
  sameSecret,
  securityHeaders,
} from './security.ts';
import { type InboxWorkflows, workflowRunPage, workflowSection } from './workflows.ts';

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
   * Who decides, as recorded in the audit trail: a fixed name, or a function of the
   * request (e.g. your own authentication). Without it (and without `tokens`) the forms
   * ask for a name, which nothing checks.
   */
  by?: string | ((request: Request) => string | undefined);
  /** How often the live updates look at the store, in milliseconds (default 1 000). */
  pollMs?: number;
  /** Told of unexpected failures, which the browser sees as a plain 500 page (default `console.error`). */
  onError?: (error: unknown) => void;
}

/** A request body larger than this is refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Run and call ids longer than this, or with control characters, are refused with 400. */
const MAX_ID_LENGTH = 256;
/** How many of a thread's newest messages a run's page shows. */
const THREAD_MESSAGES = 50;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const textOf = (body: Html | string) => body.toString();

function respond(
  body: Html | string | ReadableStream<Uint8Array>,
  init: { status?: number; type?: string; headers?: Record<string, string> } = {},
): Response {
  const headers = securityHeaders(init.type ?? 'text/html; charset=utf-8');
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.append(name, value);
  return new Response(body instanceof ReadableStream ? body : textOf(body), {
    status: init.status ?? 200,
    headers,
  });
}

/** A path segment decoded, or a 400 when it is malformed or not a plausible id. */
function decodeId(segment: string, what: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `The ${what} in the address is not valid percent-encoding.`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (id === '' || id.length > MAX_ID_LENGTH || /[\u0000-\u001f\u007f]/.test(id)) {
    throw new HttpError(
      400,
      `Expected a ${what} of 1 to ${MAX_ID_LENGTH} printable characters, received ${id.length} characters.`,
    );
  }
  return id;
}

/** Reads a form body of at most {@link MAX_BODY_BYTES}, without buffering more. */
async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new HttpError(
      415,
      `Expected a form (application/x-www-form-urlencoded), received ${type === '' ? 'no content type' : type}.`,
    );
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) {
    throw new HttpError(413, `The form is larger than ${MAX_BODY_BYTES} bytes.`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw new HttpError(413, `The form is larger than ${MAX_BODY_BYTES} bytes.`);
      }
      chunks.push(value);
    }
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const optionalText = (value: string | null) => {
  const text = value?.trim();
  return text ? text : undefined;
};

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

/**
 * The approval inbox as a web-standard request handler, `(request: Request) =>
 * Promise<Response>`, to mount in any server that speaks `Request`/`Response` (Node
 * through `serveInbox`, Hono, Deno, Bun, …). It lists every pending approval and
 * suspension of the session's store, newest first, updates live (server-sent events),
 * and decides calls through the session (`approve`, `reject`, `resume`), exactly once:
 * the loser of a race is told who decided and when. Pages are server-rendered with
 * every stored string escaped, under a strict Content-Security-Policy; every POST must
 * come from the handler's own origin and carry the form's CSRF token. Put it behind
 * your own authentication (and pass `by`), or set `token` — or `tokens`, one per
 * approver, to record who decided.
 *
 * @example
 * ```ts
 * import { inbox, memoryStore, session } from 'fino:ai/session';
 *
 * const handle = inbox({ session: session({ store: memoryStore() }), token: 'secret-token', basePath: '/inbox' });
 * const response = await handle(new Request('http://127.0.0.1:8080/inbox/?token=secret-token'));
 * console.log(response.status, response.headers.get('location')); // 303 /inbox/
 * ```
 */
export function inbox(options: InboxOptions): (request: Request) => Promise<Response> {
  const { session } = options ?? ({} as InboxOptions);
  if (!session || typeof session.list !== 'function' || typeof session.approve !== 'function') {
    throw new TypeError(
      `inbox({ session }): session: expected a Session (from session({ store })), received ${describeValue(session)}`,
    );
  }
  const { workflows } = options;
  if (workflows !== undefined) {
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
  const approvers = accessTokens(options);
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  if (base !== '' && !/^\/[A-Za-z0-9._~/-]*$/.test(base)) {
    throw new TypeError(
      `inbox({ basePath }): expected a path such as "/inbox", received ${JSON.stringify(options.basePath)}`,
    );
  }
  const pollMs = checkDuration('inbox: pollMs', options.pollMs ?? 1_000);
  const loginMs = checkDuration('inbox: loginMs', options.loginMs ?? DEFAULT_LOGIN_MS);
  const logins = loginTable(loginMs);
  const csrf = csrfTokens();
  const watcher = storeWatcher(session, pollMs, workflows);
  const guest: PageContext = {
    base,
    csrf: csrf.valueFor(undefined),
    askName: options.by === undefined && options.tokens === undefined,
  };
  /** The pages' context for a request: its login's CSRF value, name and log-out button. */
  const contextOf = (login: Login | undefined): PageContext =>
    login === undefined
      ? guest
      : { ...guest, csrf: csrf.valueFor(login.id), account: { approver: login.approver } };
  const deciderOf = (request: Request, form: URLSearchParams, login: Login | undefined) => {
    if (options.tokens !== undefined) return login?.approver;
    return typeof options.by === 'function'
      ? options.by(request)
      : (options.by ?? optionalText(form.get('by'))?.slice(0, 200));
  };

  const failure = (status: number, title: string, text: string, ctx = guest) =>
    respond(messagePage(ctx, title, text), { status });

  /** The approver whose token this is ('' for the one shared token), if any. */
  const approverOf = (given: string): string | undefined => {
    let found: string | undefined;
    // Every token is compared, so the time taken does not tell which one was close.
    for (const [name, secret] of approvers) if (sameSecret(given, secret)) found ??= name;
    return found;
  };

  /**
   * The request's login (`undefined` without a token), or the response that stops it:
   * a 401, or the 303 that trades `?token=…` for a login cookie.
   */
  function authenticate(request: Request, url: URL): { login?: Login } | { stop: Response } {
    if (approvers.length === 0) return {};
    const given = url.searchParams.get('token');
    if (given !== null && request.method === 'GET') {
      const approver = approverOf(given);
      if (approver === undefined) {
        return { stop: failure(401, 'Wrong token', 'That token does not open this inbox.') };
      }
      const login = logins.open(approver === '' ? undefined : approver);
      url.searchParams.delete('token');
      const query = url.searchParams.toString();
      return {
        stop: respond('', {
          status: 303,
          headers: {
            // One leading slash: "//evil.example/" would be a protocol-relative redirect.
            location: `/${url.pathname.replace(/^\/+/, '')}${query ? `?${query}` : ''}`,
            'set-cookie': loginCookie(url, base, login.id, loginMs),
          },
        }),
      };
    }
    const login = logins.find(readCookie(request.headers.get('cookie'), loginCookieName(url)));
    if (login !== undefined) return { login };
    return {
      stop: failure(
        401,
        'Token required',
        'This inbox needs its token: open the address that "fino sessions serve" printed (it ends in ?token=…), again after logging out or after the login expired.',
      ),
    };
  }

  /** Refuses a POST from another origin or without this login's CSRF value. */
  async function checkedForm(request: Request, url: URL, login: Login | undefined) {
    const origin = request.headers.get('origin');
    if (origin !== url.origin) {
      throw new HttpError(
        403,
        `Refused: a decision must come from this inbox's own page (expected origin ${url.origin}, received ${origin ?? 'none'}).`,
      );
    }
    const form = await readForm(request);
    if (!csrf.check(form.get('csrf') ?? undefined, login?.id)) {
      throw new HttpError(
        403,
        'Refused: the form is stale or forged (bad CSRF token). Reload the page and try again.',
      );
    }
    return form;
  }

  /** POST /logout: ends the login and deletes its cookie. */
  async function logout(request: Request, url: URL, login: Login | undefined) {
    await checkedForm(request, url, login);
    if (login !== undefined) logins.close(login.id);
    return respond(
      messagePage(guest, 'Logged out', 'You are logged out of this inbox on this browser.'),
      { headers: { 'set-cookie': loginCookie(url, base, '', 0) } },
    );
  }

  async function inboxView(ctx: PageContext, url: URL, fragmentOnly: boolean): Promise<Response> {
    const tool = (url.searchParams.get('tool') ?? '').trim().slice(0, 200);
    const statusParam = url.searchParams.get('status') ?? 'suspended';
    if (!STATUS_FILTERS.includes(statusParam as StatusFilter)) {
      throw new HttpError(
        400,
        `Expected status to be one of ${STATUS_FILTERS.join(', ')}, received "${statusParam.slice(0, 40)}".`,
      );
    }
    const status = statusParam as StatusFilter;
    const runs = await session.list(status === 'all' ? {} : { status });
    const extra = workflows && (await workflowSection(ctx, workflows, tool, status));
    return respond(
      fragmentOnly
        ? listFragment(ctx, runs, tool, status, extra)
        : inboxPage(ctx, runs, tool, status, extra),
    );
  }

  async function runView(
    ctx: PageContext,
    runId: string,
    notice?: { text: string; warn?: boolean },
    status = 200,
  ) {
    const run = await session.get(runId);
    if (!run) throw new HttpError(404, `No run with id "${runId}".`);
    return respond(
      runPage(ctx, run, notice, await runThread(session, run, { limit: THREAD_MESSAGES })),
      { status },
    );
  }

  /** Why a decision was refused, in words for the person who clicked. */
  async function refusal(error: SessionError, ref: { runId: string; toolCallId: string }) {
    if (error.code === 'ALREADY_DECIDED') {
      const run = await session.get(ref.runId);
      const last = run?.audit?.filter((a) => a.toolCallId === ref.toolCallId).at(-1);
      const who = last?.by ? `by ${last.by}` : 'by someone else';
      return last
        ? `Already decided ${who} at ${last.at} (${last.action}${last.note ? `: ${last.note}` : ''}). Nothing was changed.`
        : 'Already decided by someone else. Nothing was changed.';
    }
    if (error.code === 'NOT_PENDING') {
      return 'This call no longer waits for a decision (the run was cancelled or has moved on). Nothing was changed.';
    }
    return undefined;
  }

  async function decide(
    request: Request,
    url: URL,
    login: Login | undefined,
    runId: string,
    toolCallId: string,
  ) {
    const ctx = contextOf(login);
    const form = await checkedForm(request, url, login);
    const ref: PendingRef = { runId, toolCallId };
    const by = deciderOf(request, form, login);
    const note = optionalText(form.get('note'))?.slice(0, 2000);
    const action = form.get('action');
    let run: SessionRun;
    try {
      if (action === 'approve') run = await session.approve(ref, { by, note });
      else if (action === 'reject') {
        const reason = note ?? `Rejected${by ? ` by ${by}` : ''} in the approval inbox`;
        run = await session.reject(ref, reason, { by, note: reason });
      } else if (action === 'answer') {
        const value = await answerValue(runId, toolCallId, form.get('answer') ?? '');
        run = await session.resume(ref, value, { by, note });
      } else {
        throw new HttpError(
          400,
          `Expected action to be approve, reject or answer, received ${JSON.stringify(action?.slice(0, 40) ?? null)}.`,
        );
      }
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
      if (error.code === 'NOT_FOUND') throw new HttpError(404, error.message);
      if (error.code === 'INVALID_ARGUMENT') throw new HttpError(400, error.message);
      const text = await refusal(error, ref);
      if (text === undefined) throw error;
      return runView(ctx, runId, { text, warn: true }, 409);
    }
    const verb = action === 'approve' ? 'Approved' : action === 'reject' ? 'Rejected' : 'Answered';
    const now = await fresh(run);
    return respond(
      runPage(
        ctx,
        now,
        { text: `${verb}. The run is now ${run.status}.` },
        await runThread(session, now, { limit: THREAD_MESSAGES }),
      ),
    );
  }

  /** The run as stored now, with its audit trail (the decision's result lacks it). */
  const fresh = async (run: SessionRun) => (await session.get(run.runId)) ?? run;

  /** The answer to a session run's suspension. */
  async function answerValue(runId: string, toolCallId: string, text: string): Promise<unknown> {
    const run = await session.get(runId);
    const call =
      run?.status === 'suspended'
        ? run.pending.find((p) => p.toolCallId === toolCallId)
        : undefined;
    return parseAnswer(call?.payload, text);
  }

  /** An answer: JSON checked against the suspension's schema when it declares one, else the text. */
  function parseAnswer(payload: unknown, text: string): unknown {
    const schema = declaredSchema(payload);
    if (schema === undefined) {
      if (text.trim() === '')
        throw new HttpError(400, 'Expected an answer, received an empty field.');
      return text;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpError(
        400,
        `Expected the answer as JSON (quote strings: "M"), received ${text.slice(0, 200)}`,
      );
    }
    let check: ReturnType<typeof compile>;
    try {
      check = compile(schema);
    } catch {
      return value; // the tool declared a schema we cannot compile: JSON is all we can check
    }
    const result = check.safeParse(value);
    if (!result.success) {
      throw new HttpError(
        400,
        `The answer does not match the schema: ${formatIssues(result.issues)}`,
      );
    }
    return value;
  }

  /** A workflow run's page: status, pending decisions, timeline, audit trail. */
  async function workflowView(
    ctx: PageContext,
    runId: string,
    notice?: { text: string; warn?: boolean },
    status = 200,
  ) {
    if (!workflows) throw new HttpError(404, 'This inbox shows no workflow runs.');
    try {
      const run = await workflows.get(runId);
      const history = await workflows.history(runId);
      return respond(workflowRunPage(ctx, run, history, notice), { status });
    } catch (error) {
      if (workflowCode(error) === 'NOT_FOUND') {
        throw new HttpError(404, `No workflow run with id "${runId}".`);
      }
      throw error;
    }
  }

  /** Approves, rejects or answers a workflow run's pending decision, once. */
  async function decideWorkflow(
    request: Request,
    url: URL,
    login: Login | undefined,
    runId: string,
    decisionId: string,
  ) {
    if (!workflows) throw new HttpError(404, 'No such form.');
    const ctx = contextOf(login);
    const form = await checkedForm(request, url, login);
    const ref = { runId, decisionId };
    const by = deciderOf(request, form, login);
    const note = optionalText(form.get('note'))?.slice(0, 2000);
    const action = form.get('action');
    try {
      if (action === 'approve') await workflows.decide(ref, { approve: true }, { by, note });
      else if (action === 'reject') {
        const reason = note ?? `Rejected${by ? ` by ${by}` : ''} in the approval inbox`;
        await workflows.decide(ref, { reject: reason }, { by, note: reason });
      } else if (action === 'answer') {
        const pending = (await workflows.get(runId)).pending ?? [];
        const call = pending.find((p) => p.decisionId === decisionId);
        const value = parseAnswer(call?.payload, form.get('answer') ?? '');
        await workflows.decide(ref, { resume: value }, { by, note });
      } else {
        throw new HttpError(
          400,
          `Expected action to be approve, reject or answer, received ${JSON.stringify(action?.slice(0, 40) ?? null)}.`,
        );
      }
    } catch (error) {
      const code = workflowCode(error);
      if (code === 'NOT_FOUND') throw new HttpError(404, (error as Error).message);
      if (code === 'INVALID_ARGUMENT') throw new HttpError(400, (error as Error).message);
      if (code === 'NOT_PENDING') {
        return workflowView(
          ctx,
          runId,
          {
            text: 'This decision is no longer pending (the run has ended). Nothing was changed.',
            warn: true,
          },
          409,
        );
      }
      if (code !== 'ALREADY_DECIDED') throw error;
      const run = await workflows.get(runId);
      const last = run.audit?.filter((a) => a.decisionId === decisionId).at(-1);
      const text = last
        ? `Already decided ${last.by ? `by ${last.by}` : 'by someone else'} at ${last.at} (${last.action}${last.note ? `: ${last.note}` : ''}). Nothing was changed.`
        : 'Already decided by someone else. Nothing was changed.';
      return workflowView(ctx, runId, { text, warn: true }, 409);
    }
    const verb = action === 'approve' ? 'Approved' : action === 'reject' ? 'Rejected' : 'Answered';
    return workflowView(ctx, runId, { text: `${verb}. A worker continues the run.` });
  }

  async function route(request: Request, url: URL): Promise<Response> {
    if (!url.pathname.startsWith(`${base}/`) && url.pathname !== base) {
      throw new HttpError(404, 'No such page.');
    }
    const path = url.pathname.slice(base.length) || '/';
    const method = request.method;
    if (method === 'GET' && path === '/inbox.css')
      return respond(INBOX_CSS, { type: 'text/css; charset=utf-8' });
    if (method === 'GET' && path === '/inbox.js') {
      return respond(INBOX_JS, { type: 'text/javascript; charset=utf-8' });
    }
    const auth = authenticate(request, url);
    if ('stop' in auth) return auth.stop;
    const { login } = auth;
    const ctx = contextOf(login);
    const segments = path.split('/').slice(1);
    if (method === 'GET' || method === 'HEAD') {
      if (path === '/') return inboxView(ctx, url, false);
      if (path === '/fragment') return inboxView(ctx, url, true);
      if (path === '/events') {
        const stream = eventStream(watcher, request.signal);
        if (!stream) throw new HttpError(503, 'Too many live connections; reload later.');
        return respond(stream, { type: 'text/event-stream; charset=utf-8' });
      }
      if (segments.length === 2 && segments[0] === 'runs') {
        return runView(ctx, decodeId(segments[1], 'run id'));
      }
      if (segments.length === 2 && segments[0] === 'workflows') {
        return workflowView(ctx, decodeId(segments[1], 'workflow run id'));
      }
      throw new HttpError(404, 'No such page.');
    }
    if (method === 'POST') {
      if (path === '/logout') return logout(request, url, login);
      if (segments.length === 4 && segments[0] === 'runs' && segments[2] === 'calls') {
        return decide(
          request,
          url,
          login,
          decodeId(segments[1], 'run id'),
          decodeId(segments[3], 'tool call id'),
        );
      }
      if (segments.length === 4 && segments[0] === 'workflows' && segments[2] === 'decisions') {
        return decideWorkflow(
          request,
          url,
          login,
          decodeId(segments[1], 'workflow run id'),
          decodeId(segments[3], 'decision id'),
        );
      }
      throw new HttpError(404, 'No such form.');
    }
    return respond(
      messagePage(
        guest,
        'Method not allowed',
        `Expected GET or POST, received ${method.slice(0, 20)}.`,
      ),
      {
        status: 405,
        headers: { allow: 'GET, HEAD, POST' },
      },
    );
  }

  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return failure(400, 'Bad request', 'The request has no valid address.');
    }
    try {
      return await route(request, url);
    } catch (error) {
      if (error instanceof HttpError) {
        const titles: Record<number, string> = {
          400: 'Bad request',
          403: 'Forbidden',
          404: 'Not found',
          413: 'Too large',
          415: 'Unsupported form',
          503: 'Busy',
        };
        return failure(error.status, titles[error.status] ?? 'Refused', error.message);
      }
      if (
        (error instanceof SessionError && error.code === 'CORRUPT_RUN') ||
        workflowCode(error) === 'CORRUPT_RUN'
      ) {
        return failure(500, 'Unreadable run', (error as Error).message);
      }
      (options.onError ?? console.error)(error);
      return failure(
        500,
        'Something went wrong',
        'The inbox could not answer; the server log has the details.',
      );
    }
  };
}

/** The code of a `WorkflowError` (recognised by name: the inbox does not import fino:workflow). */
function workflowCode(error: unknown): string | undefined {
  try {
    const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
    return name === 'WorkflowError' && typeof code === 'string' ? code : undefined;
  } catch {
    return undefined; // a thrown value whose properties throw is no WorkflowError
  }
}
