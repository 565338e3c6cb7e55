/**
 * The inbox's logins (decision 129): a browser that arrived with a valid `?token=…`
 * gets a random login id in a cookie, never the token itself. The table maps each id to
 * who logged in (with a token per approver) and when the login ends; it is bounded.
 */
import { randomBytes } from 'node:crypto';

/** One browser's login: who (when each approver has a token) and until when. */
export interface Login {
  /** The login id, the cookie's value. */
  id: string;
  /** The approver's name, when the inbox has a token per approver. */
  approver?: string;
  /** When the login ends, in milliseconds since the epoch. */
  expiresAt: number;
}

/** The most logins kept at once; past it the oldest is dropped (its browser logs in again). */
export const MAX_LOGINS = 1_000;
/** How long a login lasts unless the inbox is told otherwise: 12 hours. */
export const DEFAULT_LOGIN_MS = 12 * 60 * 60 * 1000;

/** A bounded table of logins, each lasting `lifetimeMs`. */
export function loginTable(lifetimeMs: number, max = MAX_LOGINS, now = Date.now) {
  const logins = new Map<string, Login>();
  const sweep = () => {
    const time = now();
    for (const [id, login] of logins) if (login.expiresAt <= time) logins.delete(id);
  };
  return {
    /** Opens a login (dropping expired ones, then the oldest when full) and returns it. */
    open(approver: string | undefined): Login {
      if (logins.size >= max) sweep();
      while (logins.size >= max) logins.delete(logins.keys().next().value as string);
      const login: Login = {
        id: randomBytes(32).toString('base64url'),
        expiresAt: now() + lifetimeMs,
        ...(approver === undefined ? {} : { approver }),
      };
      logins.set(login.id, login);
      return login;
    },
    /** The live login with this id, if any (an expired one is forgotten). */
    find(id: string | undefined): Login | undefined {
      if (id === undefined) return undefined;
      const login = logins.get(id);
      if (login === undefined || login.expiresAt > now()) return login;
      logins.delete(id);
      return undefined;
    },
    /** Ends a login (logging out). */
    close(id: string): void {
      logins.delete(id);
    },
    /** How many logins are kept (for tests of the bound). */
    get size(): number {
      return logins.size;
    },
  };
}
