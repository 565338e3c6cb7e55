/**
 * Who may use an inbox and who decides: the token (or one per approver) traded once for
 * a login cookie, the page context of a login (its CSRF value, name and log-out button),
 * the checks every POST passes, and the name the audit trail records.
 */
import { HttpError, optionalText, readForm, respond } from './http.ts';
import { type Login, loginTable } from './logins.ts';
import type { CheckedInboxOptions, InboxOptions } from './options.ts';
import { messagePage, type PageContext } from './pages.ts';
import { csrfTokens, loginCookie, loginCookieName, readCookie, sameSecret } from './security.ts';

/** An inbox's access rules over its checked options; see {@link inboxAccess}. */
export type InboxAccess = ReturnType<typeof inboxAccess>;

/** The access rules of one inbox: its logins, its CSRF secret, its page contexts. */
export function inboxAccess(options: InboxOptions, checked: CheckedInboxOptions) {
  const { approvers, base, loginMs } = checked;
  const logins = loginTable(loginMs);
  const csrf = csrfTokens();
  const guest: PageContext = {
    base,
    csrf: csrf.valueFor(undefined),
    askName: options.by === undefined && options.tokens === undefined,
  };

  /** A page that says what went wrong, with `status`. */
  const failure = (status: number, title: string, text: string, ctx = guest) =>
    respond(messagePage(ctx, title, text), { status });

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

  const access = {
    /** The context of pages for nobody in particular (errors before a login is known). */
    guest,
    failure,

    /** The pages' context for a request: its login's CSRF value, name and log-out button. */
    contextOf: (login: Login | undefined): PageContext =>
      login === undefined
        ? guest
        : { ...guest, csrf: csrf.valueFor(login.id), account: { approver: login.approver } },

    /** Who decides, for the audit trail: the login's approver, `by`, or the form's name. */
    deciderOf(request: Request, form: URLSearchParams, login: Login | undefined) {
      if (options.tokens !== undefined) return login?.approver;
      return typeof options.by === 'function'
        ? options.by(request)
        : (options.by ?? optionalText(form.get('by'))?.slice(0, 200));
    },

    /**
     * The request's login (`undefined` without a token), or the response that stops it:
     * a 401, or the 303 that trades `?token=…` for a login cookie.
     */
    authenticate(request: Request, url: URL): { login?: Login } | { stop: Response } {
      if (approvers.length === 0) return {};
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
    },

    /** Refuses a POST from another origin or without this login's CSRF value. */
    async checkedForm(request: Request, url: URL, login: Login | undefined) {
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
    async logout(request: Request, url: URL, login: Login | undefined): Promise<Response> {
      await access.checkedForm(request, url, login);
      if (login !== undefined) logins.close(login.id);
      return respond(
        messagePage(guest, 'Logged out', 'You are logged out of this inbox on this browser.'),
        { headers: { 'set-cookie': loginCookie(url, base, '', 0) } },
      );
    },
  };
}
