/**
 * Who may use an inbox and who decides: the token (or one per approver) traded once for
 * a login cookie, the identity the host's `identify` gives, the page context of a
 * visitor (its CSRF value, who is signed in, the log-out button), the checks every POST
 * passes, and the name the audit trail records.
 */
import { HttpError, optionalText, readForm, respond } from './http.ts';
import { checkedIdentity, type InboxIdentity, UNVERIFIED } from './identity.ts';
import { type Login, loginTable } from './logins.ts';
import type { CheckedInboxOptions, InboxOptions } from './options.ts';
import { messagePage, type PageContext } from './pages.ts';
import { csrfTokens, loginCookie, loginCookieName, readCookie, sameSecret } from './security.ts';

/** An inbox's access rules over its checked options; see {@link inboxAccess}. */
export type InboxAccess = ReturnType<typeof inboxAccess>;

/** Who a request comes from: its login (with a token), its identity (with `identify`). */
export interface Visitor {
  login?: Login;
  identity?: InboxIdentity;
}

/** The access rules of one inbox: its logins, its CSRF secret, its page contexts. */
export function inboxAccess(options: InboxOptions, checked: CheckedInboxOptions) {
  const { approvers, base } = checked;
  const csrf = csrfTokens();
  const guest: PageContext = {
    base,
    csrf: csrf.valueFor(undefined),
    askName:
      options.by === undefined && options.tokens === undefined && options.identify === undefined,
  };

  /** A page that says what went wrong, with `status`. */
  const failure = (status: number, title: string, text: string, ctx = guest) =>
    respond(messagePage(ctx, title, text), { status });

  const tokens = tokenLogins(checked, failure);

  const access = {
    /** The context of pages for nobody in particular (errors before a visitor is known). */
    guest,
    failure,

    /** The pages' context for a visitor: its login's CSRF value, who is signed in, log-out. */
    contextOf: ({ login, identity }: Visitor): PageContext => {
      const name = identity ? (identity.name ?? identity.id) : login?.approver;
      if (login === undefined && name === undefined) return guest;
      return {
        ...guest,
        csrf: csrf.valueFor(login?.id),
        account: { name, canLogOut: login !== undefined },
      };
    },

    /**
     * Who decides, for the audit trail: the login's approver, the identity's id, `by`, or
     * the form's name marked unverified (decision 188).
     */
    deciderOf(request: Request, form: URLSearchParams, { login, identity }: Visitor) {
      if (options.tokens !== undefined) return login?.approver;
      if (identity !== undefined) return identity.id;
      if (typeof options.by === 'function') return options.by(request);
      if (options.by !== undefined) return options.by;
      const typed = optionalText(form.get('by'))?.slice(0, 200);
      return typed === undefined ? undefined : `${typed}${UNVERIFIED}`;
    },

    /**
     * Who the request comes from, or the response that stops it: a 401 (no login, or
     * nobody `identify` knows), or the 303 that trades `?token=…` for a login cookie.
     */
    async authenticate(request: Request, url: URL): Promise<Visitor | { stop: Response }> {
      const visitor = approvers.length === 0 ? {} : tokens.loginOf(request, url);
      if ('stop' in visitor || options.identify === undefined) return visitor;
      const identity = checkedIdentity(await options.identify(request));
      if (identity !== undefined) return { ...visitor, identity };
      return {
        stop: failure(
          401,
          'Not signed in',
          'This inbox takes who you are from the site it belongs to, and this request did not say: sign in there (or open the inbox through its proxy) and reload.',
        ),
      };
    },

    /** Refuses a POST from another origin or without this login's CSRF value. */
    async checkedForm(request: Request, url: URL, { login }: Visitor) {
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
    },
  };
  return {
    ...access,
    /** POST /logout: ends the login and deletes its cookie. */
    async logout(request: Request, url: URL, visitor: Visitor): Promise<Response> {
      await access.checkedForm(request, url, visitor);
      if (visitor.login !== undefined) tokens.close(visitor.login.id);
      return respond(
        messagePage(guest, 'Logged out', 'You are logged out of this inbox on this browser.'),
        { headers: { 'set-cookie': loginCookie(url, base, '', 0) } },
      );
    },
  };
}

/**
 * The token side of access: `?token=…` traded once for a login cookie (303), and the
 * login a later request's cookie names, or the 401 that says a token is needed.
 */
function tokenLogins(
  { approvers, base, loginMs }: CheckedInboxOptions,
  failure: (status: number, title: string, text: string) => Response,
) {
  const logins = loginTable(loginMs);

  /** The approver whose token this is ('' for the one shared token), if any. */
  const approverOf = (given: string): string | undefined => {
    let found: string | undefined;
    // Every token is compared, so the time taken does not tell which one was close.
    for (const [name, secret] of approvers) if (sameSecret(given, secret)) found ??= name;
    return found;
  };

  /** The 303 that trades `?token=…` for a login cookie, or a 401 for a wrong token. */
  const logIn = (url: URL, given: string): Response => {
    const approver = approverOf(given);
    if (approver === undefined) {
      return failure(401, 'Wrong token', 'That token does not open this inbox.');
    }
    const login = logins.open(approver === '' ? undefined : approver);
    url.searchParams.delete('token');
    const query = url.searchParams.toString();
    return respond('', {
      status: 303,
      headers: {
        // One leading slash: "//evil.example/" would be a protocol-relative redirect.
        location: `/${url.pathname.replace(/^\/+/, '')}${query ? `?${query}` : ''}`,
        'set-cookie': loginCookie(url, base, login.id, loginMs),
      },
    });
  };

  /** The request's login, or the response that stops it (see `authenticate`). */
  const loginOf = (request: Request, url: URL): Visitor | { stop: Response } => {
    const given = url.searchParams.get('token');
    if (given !== null && request.method === 'GET') return { stop: logIn(url, given) };
    const login = logins.find(readCookie(request.headers.get('cookie'), loginCookieName(url)));
    if (login !== undefined) return { login };
    return {
      stop: failure(
        401,
        'Token required',
        'This inbox needs its token: open the address that "fino sessions serve" printed (it ends in ?token=…), again after logging out or after the login expired.',
      ),
    };
  };
  return { loginOf, close: (id: string) => logins.close(id) };
}
